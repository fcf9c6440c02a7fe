#if Txkit
/// Matches a call's argument labels against a member's parameters the way
/// Swift does for the shapes legacy code uses: labels in order, defaulted
/// parameters skippable, a variadic parameter taking one or more unlabeled
/// arguments after its first, a trailing closure filling a closure
/// parameter whatever its label.
struct CallMatcher {
    /// The label each parameter expects at the call site.
    let expectedLabels: [String?]
    let parameters: [IndexedParameter]

    /// - Parameter shimForm: The call goes through a generated shim, whose
    ///   legacy-transaction parameters are unlabeled.
    init(member: IndexedMember, shimForm: Bool, isLegacyTransaction: (String) -> Bool) {
        parameters = member.parameters
        expectedLabels = member.parameters.map { parameter in
            shimForm && isLegacyTransaction(parameter.type) ? nil : parameter.label
        }
    }

    /// The indices of the parameters the call supplies, or `nil` when the
    /// labels do not fit.
    func match(_ labels: [String?]) -> Set<Int>? {
        argumentParameters(labels).map { Set($0) }
    }

    /// The parameter each argument fills, in argument order, or `nil` when
    /// the labels do not fit.
    func argumentParameters(_ labels: [String?]) -> [Int]? {
        var filled = Array(repeating: -1, count: labels.count)
        return match(parameter: 0, argument: 0, labels, &filled) ? filled : nil
    }

    private func match(parameter i: Int, argument j: Int, _ labels: [String?], _ filled: inout [Int]) -> Bool {
        if j == labels.count {
            return parameters[i...].allSatisfy { $0.defaultValue != nil || $0.isVariadic }
        }
        guard i < parameters.count else { return false }
        let parameter = parameters[i]
        let fits = labels[j] == expectedLabels[i] || (labels[j] == nil && parameter.isClosure)
        if fits {
            if parameter.isVariadic {
                // The first argument carries the label; the others none.
                var end = j + 1
                while true {
                    for k in j..<end { filled[k] = i }
                    if match(parameter: i + 1, argument: end, labels, &filled) { return true }
                    guard end < labels.count, labels[end] == nil else { break }
                    end += 1
                }
            } else {
                filled[j] = i
                if match(parameter: i + 1, argument: j + 1, labels, &filled) { return true }
            }
        }
        if parameter.defaultValue != nil || parameter.isVariadic {
            return match(parameter: i + 1, argument: j, labels, &filled)
        }
        return false
    }
}
#endif
