// Ours: a parent protocol in another file; `Child` in Inherited.swift
// inherits its requirements.
protocol Parent {
    var name: String { get }
    func parentMethod(_ value: Int) -> Int
}

protocol Grandparent {
    func grandparentMethod() -> String
}
