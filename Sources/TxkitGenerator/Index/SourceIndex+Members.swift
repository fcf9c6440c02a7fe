#if Txkit
/// The symbol table's second pass, once every declaration is read: nested
/// types spelled as generated code must spell them, members inherited
/// from superclasses and protocols in the tree, and lookups by member.
extension SourceIndex {
    /// Qualifies the nested types a member's signature names
    /// (`PreparedSendData` declared in `Legacy` → `Legacy.PreparedSendData`),
    /// since shims and mocks are declared outside the type.
    func qualifyNestedTypes() {
        // The last components of the nested types' and aliases' names: a
        // word that is none of them names no nested type in any scope.
        let nested = Set((Array(types.keys) + Array(typealiases.keys)).compactMap { name in
            name.contains(".") ? name.split(separator: ".").last.map(String.init) : nil
        })
        guard !nested.isEmpty else { return }
        // Each type reads the table and writes only itself: computed on
        // every core, written back in order.
        let qualified = typeNames.concurrentMap { name -> IndexedType? in
            guard var type = types[name] else { return nil }
            let scopes = Self.enclosingScopes(of: type.qualifiedName)
            var changed = false
            for index in type.members.indices {
                var member = type.members[index]
                let generic = Set(member.genericParameterNames)
                member.resultType = member.resultType.map { qualify($0, in: scopes, except: generic, nested: nested) }
                for p in member.parameters.indices {
                    member.parameters[p].type = qualify(member.parameters[p].type, in: scopes, except: generic, nested: nested)
                }
                if member != type.members[index] {
                    type.members[index] = member
                    changed = true
                }
            }
            return changed ? type : nil
        }
        for (name, type) in zip(typeNames, qualified) {
            if let type { types[name] = type }
        }
    }

    /// `A.B` → `["A.B", "A"]`: where a name used inside `A.B` is looked up
    /// before the top level.
    private static func enclosingScopes(of qualifiedName: String) -> [String] {
        var parts = qualifiedName.split(separator: ".").map(String.init)
        var scopes: [String] = []
        while !parts.isEmpty {
            scopes.append(parts.joined(separator: "."))
            parts.removeLast()
        }
        return scopes
    }

    /// `type` with each identifier that names a type nested in one of
    /// `scopes` prefixed with that scope. Identifiers after a `.` are
    /// already qualified; generic parameters are left alone. `nested`
    /// holds the last components of the nested types' names.
    private func qualify(_ type: String, in scopes: [String], except generic: Set<String>, nested: Set<String>) -> String {
        var result = ""
        var word = ""
        var previous: Character = " "
        func flush() {
            defer { word = "" }
            guard !word.isEmpty else { return }
            if previous != ".", nested.contains(word), !generic.contains(word), word.first?.isUppercase == true,
               let scope = scopes.first(where: { types["\($0).\(word)"] != nil || typealiases["\($0).\(word)"] != nil }) {
                result += "\(scope).\(word)"
            } else {
                result += word
            }
        }
        var wordStart: Character = " "
        for character in type {
            if character.isLetter || character.isNumber || character == "_" {
                if word.isEmpty { previous = wordStart }
                word.append(character)
            } else {
                flush()
                result.append(character)
                wordStart = character
            }
        }
        flush()
        return result
    }

    /// Gives each type the members of its superclasses and of the protocols
    /// it adopts (their requirements and extensions), when those are in
    /// the sources. A member the type declares itself (an override, a
    /// requirement's implementation) is not repeated.
    func inheritMembers() {
        // A protocol's associated types, read once per protocol rather
        // than once per type adopting it.
        var associated: [String: Set<String>] = [:]
        for (name, type) in types where type.kind == .protocol {
            associated[name] = type.associatedTypeNames
        }
        // Each type's inherited members depend only on the members the
        // types declare, not on what other types inherit: computed on
        // every core, written back in order.
        let inherited = typeNames.concurrentMap { name in inheritedMembers(of: name, associated: associated) }
        for (name, members) in zip(typeNames, inherited) where !members.isEmpty {
            types[name]?.inheritedMembers = members
        }
    }

    /// The members `name` inherits from its superclasses and the protocols
    /// it adopts, nearest first, those it declares itself aside.
    private func inheritedMembers(of name: String, associated: [String: Set<String>]) -> [IndexedMember] {
        guard let type = types[name] else { return [] }
        var seen: Set<String> = [name, type.qualifiedName]
        var inherited: [IndexedMember] = []
        // Read once a parent is found in the sources (most types have none).
        var keys: Set<String>?
        var queue = type.inherited
        while !queue.isEmpty {
            var parent = Self.coreTypeName(queue.removeFirst())
            if let generic = parent.firstIndex(of: "<") { parent = String(parent[..<generic]) }
            guard seen.insert(parent).inserted, let parentType = types[parent] else { continue }
            if keys == nil { keys = Set(type.members.map(Self.signatureKey)) }
            // A requirement the type implements with its own alias of
            // an associated type is the type's member, not a second one.
            let associated = associated[parent] ?? []
            for member in parentType.members
            where !type.members.contains(where: { $0.witnesses(member, associated: associated) })
                && keys!.insert(Self.signatureKey(member)).inserted {
                inherited.append(member)
            }
            queue += parentType.inherited
        }
        return inherited
    }

    /// What makes two members the same for overriding: kind, name,
    /// labels and parameter types, static or not.
    private static func signatureKey(_ member: IndexedMember) -> String {
        let parameters = member.parameters.map { "\($0.label ?? "_"):\($0.type)" }.joined(separator: ",")
        return "\(member.isStatic ? "static " : "")\(member.name)(\(parameters))"
    }

    /// The named type inside a written type: `any Legacy`, `Legacy?`,
    /// `(Legacy)!` → `Legacy`; `Self` stays `Self`. Collections and
    /// generic types are returned as written.
    static func coreTypeName(_ written: String) -> String {
        if isCoreTypeName(written) { return written }
        var type = written.trimmingWhitespace
        var changed = true
        while changed {
            changed = false
            for prefix in ["any ", "some ", "inout ", "borrowing ", "consuming "] where type.hasPrefix(prefix) {
                type = String(type.dropFirst(prefix.count)).trimmingWhitespace
                changed = true
            }
            while type.hasSuffix("?") || type.hasSuffix("!") {
                type = String(type.dropLast()).trimmingWhitespace
                changed = true
            }
            if type.hasPrefix("("), type.hasSuffix(")"), !type.contains(","), !type.contains("->") {
                type = String(type.dropFirst().dropLast()).trimmingWhitespace
                changed = true
            }
        }
        return type
    }

    /// Whether ``coreTypeName(_:)`` returns `written` as it is, read from
    /// its bytes (the scans ask for every name they meet): no whitespace,
    /// `(` or `)`, `?` or `!` at its ends, no prefix it drops. Text that
    /// starts or ends with a non-ASCII character is left to the full rules.
    private static func isCoreTypeName(_ written: String) -> Bool {
        let bytes = written.utf8
        guard let first = bytes.first, let last = bytes.last else { return true }
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
        guard first < 0x80, last < 0x80, !whitespace.contains(first), !whitespace.contains(last),
              first != UInt8(ascii: "("), ![UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: ")")].contains(last)
        else { return false }
        return !["any ", "some ", "inout ", "borrowing ", "consuming "].contains { bytes.starts(with: $0.utf8) }
    }

    /// `written` with type aliases of the sources replaced by what they
    /// alias (a chain of them too), as a core type name.
    func resolvedTypeName(_ written: String) -> String {
        var type = Self.coreTypeName(written)
        var seen: Set<String> = []
        while types[type] == nil, let alias = typealiases[type], seen.insert(type).inserted {
            type = Self.coreTypeName(alias.type)
        }
        return type
    }

    /// The members named `name` of `typeName` (own and inherited), static
    /// or instance ones.
    func members(named name: String, of typeName: String, isStatic: Bool) -> [IndexedMember] {
        guard let type = types[resolvedTypeName(typeName)] else { return [] }
        return type.allMembers { $0.name == name && $0.isStatic == isStatic }
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
#endif
