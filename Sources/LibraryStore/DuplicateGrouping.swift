import Dispatch
import PhotoModel
import Synchronization

/// The grouping rule of CONTRACT §17 over fingerprints ordered best first.
enum DuplicateGrouping {
    /// The groups, as indexes into `count` members ordered best first, each group best first: each member not
    /// grouped yet, taken best first, groups with every ungrouped one of its `neighbours` (the indexes within the
    /// threshold of it, in any order, itself allowed). A member left alone is in no group.
    static func groups(count: Int, neighbours: (Int) -> [Int]) -> [[Int]] {
        var grouped = [Bool](repeating: false, count: count)
        var groups: [[Int]] = []
        for best in 0..<count where !grouped[best] {
            let others = neighbours(best).filter { $0 != best && !grouped[$0] }.sorted()
            guard !others.isEmpty else { continue }
            grouped[best] = true
            for other in others { grouped[other] = true }
            groups.append([best] + others)
        }
        return groups
    }
}

/// Every fingerprint's neighbours within a threshold, found at once in memory by multi-index hashing: for
/// making all groups afresh, where a query per asset would take minutes at a million.
struct FingerprintIndex {
    private let fingerprints: [ImageFingerprint]
    private let threshold: Int
    /// Each band's entries (indexes into `fingerprints`) sorted by the band's value, and where each value starts.
    private var entries: [[Int32]] = []
    private var starts: [[Int32]] = []
    /// The neighbours found, by index.
    private var found: [[Int32]] = []

    init(_ fingerprints: [ImageFingerprint], threshold: Int) {
        self.fingerprints = fingerprints
        self.threshold = threshold
        let values = 1 << DuplicateGroups.bandBits
        for band in 0..<DuplicateGroups.bandCount {
            var counts = [Int32](repeating: 0, count: values + 1)
            for fingerprint in fingerprints { counts[Self.value(fingerprint, band) + 1] += 1 }
            for value in 0..<values { counts[value + 1] += counts[value] }
            var next = counts
            var sorted = [Int32](repeating: 0, count: fingerprints.count)
            for (index, fingerprint) in fingerprints.enumerated() {
                let value = Self.value(fingerprint, band)
                sorted[Int(next[value])] = Int32(index)
                next[value] += 1
            }
            entries.append(sorted)
            starts.append(counts)
        }
        found = findAll()
    }

    func neighbours(of index: Int) -> [Int] {
        found[index].map(Int.init)
    }

    func hasNeighbours(_ index: Int) -> Bool {
        !found[index].isEmpty
    }

    private static func value(_ fingerprint: ImageFingerprint, _ band: Int) -> Int {
        Int((fingerprint.bits >> UInt64(band * DuplicateGroups.bandBits)) & 0xFFFF)
    }

    /// Every pair within the threshold, found once (in the first band where the two agree within the radius),
    /// on every core.
    private func findAll() -> [[Int32]] {
        let radius = threshold / DuplicateGroups.bandCount
        let probeOffsets = DuplicateGroups.probes(of: 0, radius: radius)
        let count = fingerprints.count
        let slices = max(1, min(count / 4096, 64))
        let pairsBySlice = Mutex([[(Int32, Int32)]](repeating: [], count: slices))
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            var pairs: [(Int32, Int32)] = []
            for index in stride(from: slice, to: count, by: slices) {
                let fingerprint = fingerprints[index]
                for band in 0..<DuplicateGroups.bandCount {
                    let value = Self.value(fingerprint, band)
                    for offset in probeOffsets {
                        let probe = value ^ offset
                        for position in Int(starts[band][probe])..<Int(starts[band][probe + 1]) {
                            let other = Int(entries[band][position])
                            guard other > index else { continue }
                            let candidate = fingerprints[other]
                            guard candidate.distance(to: fingerprint) <= threshold,
                                !(0..<band).contains(where: {
                                    (Self.value(candidate, $0) ^ Self.value(fingerprint, $0)).nonzeroBitCount <= radius
                                })
                            else { continue }
                            pairs.append((Int32(index), Int32(other)))
                        }
                    }
                }
            }
            pairsBySlice.withLock { $0[slice] = pairs }
        }
        var neighbours = [[Int32]](repeating: [], count: count)
        for pairs in pairsBySlice.withLock({ $0 }) {
            for (first, second) in pairs {
                neighbours[Int(first)].append(second)
                neighbours[Int(second)].append(first)
            }
        }
        return neighbours
    }
}
