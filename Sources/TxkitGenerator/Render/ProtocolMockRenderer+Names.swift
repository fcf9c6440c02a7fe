#if Txkit
/// Stub names: overloads told apart by labels, types, result, position.
extension ProtocolMockRenderer {
    func nameStubs(_ members: inout [Member]) {
        var taken: Set<String> = ["resetStaticStubs"]
        // A stub cannot share the name of a property or of a method
        // without parameters (`let load` beside `func load()`).
        var reserved: Set<String> = []
        for member in members {
            switch member.requirement.kind {
            case .property: reserved.insert(member.requirement.bareName)
            case .method where member.requirement.parameters.isEmpty: reserved.insert(member.requirement.bareName)
            default: break
            }
        }
        // Methods first, by base name; properties and subscripts get/set.
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (index, member) in members.enumerated() {
            let key: String
            switch member.requirement.kind {
            case .method: key = "m " + member.requirement.bareName
            case .subscript: key = "s subscript"
            case .property: key = "p " + member.requirement.bareName
            case .initializer: continue
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        for key in order {
            let indices = groups[key]!
            var names: [Int: String] = [:]
            for index in indices {
                let requirement = members[index].requirement
                var base = requirement.bareName
                if case .subscript = requirement.kind { base = "subscript" }
                if indices.count == 1, case .method = requirement.kind, requirement.parameters.isEmpty {
                    base += "Call"
                }
                names[index] = base
            }
            let all = members.map(\.requirement)
            func isMethod(_ index: Int) -> Bool { all[index].kind == .method }
            func collides(_ index: Int, _ counts: [String: [Int]]) -> Bool {
                counts[names[index]!]!.count > 1 || isMethod(index) && reserved.contains(names[index]!)
            }
            // The one method of the group without parameters is `nameCall`.
            let withoutParameters = indices.filter { isMethod($0) && members[$0].requirement.parameters.isEmpty }
            if withoutParameters.count == 1, let only = withoutParameters.first, names[only] == members[only].requirement.bareName {
                names[only]! += "Call"
            }
            if indices.count > 1 || indices.contains(where: { isMethod($0) && reserved.contains(names[$0]!) }) {
                let steps: [(ProtocolRequirements.Requirement) -> String] = [
                    { requirement in
                        let labels = requirement.parameters.map { $0.label ?? $0.name }
                        guard let first = labels.first else { return "" }
                        // `fetch(byName:)` is `fetchByName`, not `fetchByByName`.
                        let startsWithBy = first.hasPrefix("by") && first.dropFirst(2).first?.isUppercase == true
                        return (startsWithBy ? "" : "By") + labels.map(SwiftText.capitalized).joined()
                    },
                    { requirement in requirement.parameters.map { SwiftText.identifier(from: $0.declaredType) }.joined() },
                    { requirement in "Returning" + SwiftText.identifier(from: requirement.resultType ?? "Void")
                        + (requirement.throwsClause == nil ? "" : "Throwing") },
                    { requirement in requirement.isAsync ? "Async" : "" },
                    { requirement in SwiftText.identifier(from: requirement.whereClause) },
                ]
                for step in steps {
                    let counts = Dictionary(grouping: indices, by: { names[$0]! })
                    let colliding = indices.filter { collides($0, counts) }
                    guard !colliding.isEmpty else { break }
                    for index in colliding {
                        names[index]! += step(members[index].requirement)
                    }
                }
            }
            for index in indices where isMethod(index) && reserved.contains(names[index]!) {
                names[index]! += "Call"
            }
            for index in indices {
                let base = names[index]!
                switch members[index].requirement.kind {
                case .method:
                    members[index].getter = unique(base, &taken)
                case .property, .subscript:
                    let capital = SwiftText.capitalized(base)
                    members[index].getter = unique("get" + capital, &taken)
                    members[index].setter = unique("set" + capital, &taken)
                case .initializer:
                    break
                }
            }
        }
    }

    func unique(_ name: String, _ taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = "\(name)\(number)"
            number += 1
        }
        return SwiftText.escaped(candidate)
    }
}
#endif
