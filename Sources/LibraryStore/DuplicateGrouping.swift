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
    private let threshold: Int
    /// Each band's entries sorted by the band's value: which fingerprint (its index) and its bits, side by side so
    /// that a bucket is read in order; and where each value's bucket starts.
    private var entries: [[Int32]] = []
    private var bits: [[UInt64]] = []
    private var starts: [[Int32]] = []
    /// The neighbours found, by index.
    private var found: [[Int32]] = []

    init(_ fingerprints: [ImageFingerprint], threshold: Int) {
        self.threshold = threshold
        let values = 1 << DuplicateGroups.bandBits
        for band in 0..<DuplicateGroups.bandCount {
            var counts = [Int32](repeating: 0, count: values + 1)
            for fingerprint in fingerprints { counts[Self.value(fingerprint.bits, band) + 1] += 1 }
            for value in 0..<values { counts[value + 1] += counts[value] }
            var next = counts
            var sorted = [Int32](repeating: 0, count: fingerprints.count)
            var sortedBits = [UInt64](repeating: 0, count: fingerprints.count)
            for (index, fingerprint) in fingerprints.enumerated() {
                let value = Self.value(fingerprint.bits, band)
                sorted[Int(next[value])] = Int32(index)
                sortedBits[Int(next[value])] = fingerprint.bits
                next[value] += 1
            }
            entries.append(sorted)
            bits.append(sortedBits)
            starts.append(counts)
        }
        found = findAll(count: fingerprints.count)
    }

    func neighbours(of index: Int) -> [Int] {
        found[index].map(Int.init)
    }

    func hasNeighbours(_ index: Int) -> Bool {
        !found[index].isEmpty
    }

    private static func value(_ bits: UInt64, _ band: Int) -> Int {
        Int((bits >> UInt64(band * DuplicateGroups.bandBits)) & 0xFFFF)
    }

    /// Every pair within the threshold, found once: bucket by bucket, in the first band where the two agree within
    /// the radius, each bucket beside those within the radius of its value, on every core.
    private func findAll(count: Int) -> [[Int32]] {
        let radius = threshold / DuplicateGroups.bandCount
        let probeOffsets = DuplicateGroups.probes(of: 0, radius: radius)
        let values = 1 << DuplicateGroups.bandBits
        let slices = 64
        let pairsBySlice = Mutex([[(Int32, Int32)]](repeating: [], count: slices))
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            var pairs: [(Int32, Int32)] = []
            for band in 0..<DuplicateGroups.bandCount {
                let (entries, bits, starts) = (entries[band], bits[band], starts[band])
                // Whether two fingerprints also agree within the radius in an earlier band, where they were paired.
                func pairedEarlier(_ difference: UInt64) -> Bool {
                    (0..<band).contains { Self.value(difference, $0).nonzeroBitCount <= radius }
                }
                for value in stride(from: slice, to: values, by: slices) where starts[value] < starts[value + 1] {
                    for offset in probeOffsets where value ^ offset >= value {
                        let other = value ^ offset
                        for first in Int(starts[value])..<Int(starts[value + 1]) {
                            let firstBits = bits[first]
                            let from = offset == 0 ? first + 1 : Int(starts[other])
                            for second in from..<Int(starts[other + 1]) {
                                let difference = firstBits ^ bits[second]
                                guard difference.nonzeroBitCount <= threshold, !pairedEarlier(difference) else {
                                    continue
                                }
                                pairs.append((entries[first], entries[second]))
                            }
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
