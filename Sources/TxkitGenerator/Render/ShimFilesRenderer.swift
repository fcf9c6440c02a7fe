#if Txkit
/// The files of one consumer/legacy pair (`txkit shim`): the shim, its
/// wrapper and its mock, and the consumer's namespaces, where
/// ``GeneratedLayout`` puts them.
struct ShimFilesRenderer {
    let plan: ShimPlan
    let configuration: GeneratorConfiguration
    /// Every legacy type the consumer's namespaces list, sorted.
    let legacies: [String]
    /// The access of the other legacy types' shims (their files, generated
    /// before), for the namespaces.
    var accesses: [String: AccessLevel] = [:]

    func files() -> [GeneratedFile] {
        let consumer = plan.consumer.name, legacy = plan.legacy.name
        let layout = GeneratedLayout(configuration)
        let marker = GeneratedFileMarker.shim(consumer: consumer, legacy: legacy).line
        let renderer = ShimRenderer(plan: plan, configuration: configuration, marker: marker)
        let shimName = GeneratedLayout.shimName(consumer: consumer, legacy: legacy)
        let mock = MockRenderer(
            mockName: GeneratedLayout.mockName(consumer: consumer, legacy: legacy),
            protocolName: shimName,
            members: plan.members,
            imports: ShimRenderer.imports(
                of: plan.legacy, configuration: configuration,
                adding: configuration.mockImports + ["TransactionKit", "TransactionKitTesting"]),
            documentation: "`\(GeneratedLayout.mockReference(consumer: consumer, legacy: legacy))`: a mock of "
                + "``\(shimName)``, one `MockMethod` per member.",
            marker: marker,
            nonSendableTypes: plan.nonSendableValueTypes(configuration: configuration),
            isProtocolSendable: plan.isShimSendable)
        var accesses = self.accesses
        accesses[legacy] = plan.accessLevel(configuration: configuration)
        let namespaces = NamespaceRenderer(consumer: consumer, legacies: legacies, accesses: accesses)
        let access = min(configuration.accessLevel, plan.consumer.accessLevel).modifier
        return [
            GeneratedFile(path: layout.shimPath(consumer: consumer, legacy: legacy), contents: renderer.shim()),
            GeneratedFile(path: layout.wrapperPath(consumer: consumer, legacy: legacy), contents: renderer.wrapper()),
            GeneratedFile(path: layout.shortcutsNamespacePath(consumer: consumer), contents: namespaces.shortcuts(access: access)),
            GeneratedFile(path: layout.mockPath(consumer: consumer, legacy: legacy), contents: mock.render()),
            GeneratedFile(
                path: layout.mocksNamespacePath(consumer: consumer), contents: namespaces.mocks(imports: configuration.mockImports)),
        ]
    }
}
#endif
