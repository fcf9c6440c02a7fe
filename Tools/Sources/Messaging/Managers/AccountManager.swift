import Foundation
import TransactionKit

/// Business logic for accounts: registering users and blocking them.
///
/// ```swift
/// let accounts = AccountManager(db: db, users: AccountManager.Wrappers.LegacyUserFinder())
/// let alice = try accounts.register(name: "Alice")
/// ```
///
/// It depends on `TransactionKit` only; the legacy ``LegacyUserFinder`` is
/// reached through the Shortcut Way (``AccountManager/Shims``).
///
/// **Transaction semantics:** each method is one transaction; invalid input
/// is rejected before any transaction opens.
///
/// **Thread:** any; methods block the caller while the transaction runs.
///
/// - Warning: Do not call these methods from inside a transaction of the
///   same `DB` (nested transaction): the process stops.
public struct AccountManager: Sendable {
    /// Why a request was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Names are 2 to 32 letters, digits, spaces or hyphens.
        case invalidName(String)
        /// Another user has this name (names ignore case).
        case nameTaken(String)
        /// No user has this id.
        case unknownUser(Int64)
    }

    let db: any DB
    let users: any Shims.LegacyUserFinder

    /// Creates the manager.
    ///
    /// - Parameters:
    ///   - db: Where transactions come from: `SQLiteDB` or `MockDB`.
    ///   - users: ``AccountManager/Wrappers/LegacyUserFinder`` in production, a mock in unit tests.
    public init(db: any DB, users: any Shims.LegacyUserFinder) {
        self.db = db
        self.users = users
    }

    // snippet:begin account-register
    /// Registers a user under a trimmed, unique name.
    ///
    /// The name is checked first; a registration that races another one to
    /// the same name is caught by the database's unique index, which the
    /// manager sees as a `DBConstraintViolation` without importing GRDB.
    ///
    /// - Throws: ``Failure/invalidName(_:)`` (without opening a transaction),
    ///   ``Failure/nameTaken(_:)``, or `DBError`.
    public func register(name: String) throws -> User {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard (2...32).contains(name.count),
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" })
        else {
            throw Failure.invalidName(name)
        }
        do {
            return try db.write { tx in
                if try users.user(named: name, tx) != nil {
                    throw Failure.nameTaken(name)
                }
                return try users.insertUser(named: name, tx)
            }
        } catch let violation as DBConstraintViolation where violation.kind == .unique {
            // Another registration took the name between the check and the
            // insert: the database's unique index has the last word.
            throw Failure.nameTaken(name)
        }
    }
    // snippet:end account-register

    /// The user registered under `name` (ignoring case), if any.
    ///
    /// - Throws: `DBError`.
    public func user(named name: String) throws -> User? {
        let name = name.trimmingCharacters(in: .whitespaces)
        return try db.read { tx in try users.user(named: name, tx) }
    }

    /// Blocks a user: they keep reading but can no longer send.
    ///
    /// - Returns: `false` when the user was already blocked (nothing written).
    /// - Throws: ``Failure/unknownUser(_:)`` or `DBError`.
    public func block(userID: Int64) throws -> Bool {
        try db.write { tx in
            guard let user = try users.user(id: userID, tx) else {
                throw Failure.unknownUser(userID)
            }
            if user.isBlocked { return false }
            try users.setBlocked(true, userID: userID, tx)
            return true
        }
    }
}
