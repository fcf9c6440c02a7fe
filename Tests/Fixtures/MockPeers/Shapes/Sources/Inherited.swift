// Ours: requirements inherited from protocols in other files.
protocol Middle: Grandparent {
    func middleMethod()
}

protocol Child: Parent, Middle {
    func childMethod() -> Bool
}
