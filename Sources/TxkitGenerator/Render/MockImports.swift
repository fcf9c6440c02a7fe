#if Txkit
/// The modules a protocol's mock imports that the configuration leaves
/// out of generated files (`excludedImports`): those its members' types
/// need. A mock of `func tags(noteId: Int64, db: Database) -> [Tag]`, in a
/// file that imports GRDB, imports GRDB, or it would not compile.
///
/// A type name its members write needs a module when neither the sources
/// nor the standard library declare it. Of the excluded modules the
/// protocol's files import, the mock imports those known to declare one
/// of these names (GRDB's and Foundation's common types), and all of them
/// when a name is from no module txkit knows.
enum MockImports {
    /// The excluded modules `requirements`' mock imports, in the order
    /// the protocol's files import them.
    static func excludedModulesNeeded(
        by requirements: ProtocolRequirements, configuration: GeneratorConfiguration, index: SourceIndex
    ) -> [String] {
        let candidates = requirements.imports.filter(configuration.excludedImports.contains)
        guard !candidates.isEmpty else { return [] }
        let unknown = Set(typeNames(in: requirements).filter { name in
            index.types[name] == nil && index.typealiases[name] == nil && !standardLibrary.contains(name)
        })
        guard !unknown.isEmpty else { return [] }
        let vocabularies: [String: Set<String>] = ["GRDB": GRDBVocabulary.typeNames, "Foundation": foundation]
        let known = vocabularies.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        if !unknown.isSubset(of: known) { return candidates }
        return candidates.filter { module in vocabularies[module].map { !$0.isDisjoint(with: unknown) } ?? false }
    }

    /// The capitalized names the members' types, generic clauses and
    /// associated types write, without their own generic parameters and
    /// associated types.
    static func typeNames(in requirements: ProtocolRequirements) -> [String] {
        var names: [String] = []
        let associated = Set(requirements.associatedTypes.map(\.name))
        for requirement in requirements.requirements {
            let generics = Set(TypeText.identifiers(in: requirement.genericParameters))
            let texts = requirement.parameters.map(\.declaredType)
                + [requirement.resultType ?? "", requirement.genericParameters, requirement.whereClause]
            for text in texts {
                names += TypeText.identifiers(in: text).filter { name in
                    name.first?.isUppercase == true && !generics.contains(name) && !associated.contains(name)
                }
            }
        }
        for type in requirements.associatedTypes {
            let texts = [type.constraint ?? "", type.defaultType ?? ""] + type.requirements
            names += texts.flatMap(TypeText.identifiers).filter { $0.first?.isUppercase == true && !associated.contains($0) }
        }
        return names
    }

    /// Names the Swift standard library (and the concurrency library)
    /// declares that a member's type may write.
    static let standardLibrary: Set<String> = [
        "Any", "AnyObject", "AnyClass", "AnyHashable", "Array", "ArraySlice", "AsyncSequence", "AsyncStream",
        "AsyncThrowingStream", "Bool", "Character", "CheckedContinuation", "ClosedRange", "Codable", "Collection",
        "Comparable", "ContiguousArray", "CustomDebugStringConvertible", "CustomStringConvertible", "Decodable",
        "Dictionary", "Double", "Duration", "Encodable", "Equatable", "Error", "Float", "Hashable", "Hasher",
        "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "IteratorProtocol", "KeyPath", "Never",
        "ObjectIdentifier", "Optional", "Protocol", "Range", "RawRepresentable", "Result", "Self", "Sendable",
        "SendableMetatype", "Sequence", "Set", "StaticString", "String", "Substring", "Task", "Type", "UInt",
        "UInt8", "UInt16", "UInt32", "UInt64", "Unicode", "UnsafeMutablePointer", "UnsafeMutableRawPointer",
        "UnsafePointer", "UnsafeRawPointer", "Void", "WritableKeyPath", "Actor", "AnyActor", "MainActor",
        "Element", "Key", "Value", "Index",
    ]

    /// Common types of Foundation.
    static let foundation: Set<String> = [
        "Bundle", "Calendar", "CharacterSet", "Data", "Date", "DateComponents", "DateFormatter", "DateInterval",
        "Decimal", "FileManager", "HTTPURLResponse", "IndexPath", "IndexSet", "JSONDecoder", "JSONEncoder",
        "Locale", "Measurement", "NSError", "NSNumber", "NSObject", "NSString", "Notification",
        "NotificationCenter", "NumberFormatter", "OperationQueue", "ProcessInfo", "Progress", "TimeInterval",
        "TimeZone", "Timer", "URL", "URLComponents", "URLRequest", "URLResponse", "URLSession", "UUID",
        "UserDefaults",
    ]
}
#endif
