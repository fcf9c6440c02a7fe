/// A small, fast, seedable pseudo-random generator (the SplitMix64 mixing
/// function): the same seed gives the same programs on every machine, so a
/// failing run is replayed from the seed it prints. The tests' only
/// random generator.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of program `index` of a run seeded with `seed`: each
    /// program is replayed on its own, without generating those before it.
    package static func programSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }

    /// A number in `0..<bound`.
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// `true` with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }
}
