import BenchmarkSupport
import Foundation
import PhotoLibrary
import Synchronization

/// Change-delivery latency of `Library.Observe`: one observer holding a large result, then many observers.
@main
struct ObserverBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4 else {
            print("usage: observer-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY PHOTO_DIRECTORY [ASSETS] [ROUNDS] [OBSERVERS]")
            exit(2)
        }
        let binary = arguments[1], work = arguments[2], photos = arguments[3]
        let assetCount = arguments.count > 4 ? Int(arguments[4])! : 1_000_000
        let rounds = arguments.count > 5 ? Int(arguments[5])! : 200
        let observerCount = arguments.count > 6 ? Int(arguments[6])! : 1_000
        _ = try await BenchmarkLibrary.build(in: work, count: assetCount)
        let start = try await BenchmarkLibrary.timeStart(binary, work: work)
        print(String(format: "start with %d assets: READY=1 after %.0f ms, idle resident memory %.0f MB",
                     assetCount, start.readyMilliseconds, start.idleMegabytes))
        BenchmarkRecord.scaling("start: READY=1", size: assetCount, value: start.readyMilliseconds, unit: "ms")
        BenchmarkRecord.scaling("start: idle resident memory", size: assetCount, value: start.idleMegabytes, unit: "MB")
        BenchmarkRecord.figure("start with \(assetCount) assets: READY=1", ours: start.readyMilliseconds, peer: nil, peerName: nil,
                               unit: "ms", target: "≤ 1,000 ms at 1M")
        BenchmarkRecord.figure("… idle resident memory", ours: start.idleMegabytes, peer: nil, peerName: nil,
                               unit: "MB", target: "≤ 80 MB at 1M")
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: work)
        defer { daemon.terminate(); daemon.waitUntilExit() }

        try await largeResult(socket: socket, photos: photos, rounds: rounds, assetCount: assetCount, daemon: daemon)
        print("\nmany observers, each with two queries; one favorite toggle every 10 ms (milliseconds from commit to reply)")
        print("observers | replies | median |   p99 |   max")
        for count in [1, observerCount] {
            try await manyObservers(socket: socket, observers: count, changes: rounds)
        }
    }

    /// One observer of the whole library: latency from `PerformChanges` returning to the observer's reply.
    static func largeResult(socket: String, photos: String, rounds: Int, assetCount: Int, daemon: Process) async throws {
        let observer = try await PhotoLibrary.connect(socketPath: socket)
        let writer = try await PhotoLibrary.connect(socketPath: socket)
        let arrivals = Mutex<[String: Double]>([:])
        let loadStart = monotonicMilliseconds()
        let snapshotSize = Mutex<Int?>(nil)
        let events = observer.observe(assetQueries: ["all": AssetQuery()])
        let listener = Task {
            for try await event in events {
                let now = monotonicMilliseconds()
                if event.isSnapshot { snapshotSize.withLock { $0 = event.results[0].count } }
                arrivals.withLock { $0[event.token] = now }
            }
        }
        while snapshotSize.withLock({ $0 }) == nil {
            guard monotonicMilliseconds() - loadStart < 300_000 else { throw BenchmarkError("no snapshot within 5 minutes") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let snapshotMilliseconds = monotonicMilliseconds() - loadStart, resident = BenchmarkLibrary.residentMegabytes(of: daemon)
        print(String(format: "observer of %d assets: snapshot in %.0f ms, daemon resident memory %.0f MB",
                     snapshotSize.withLock { $0 }!, snapshotMilliseconds, resident))
        BenchmarkRecord.scaling("one observer's snapshot", size: snapshotSize.withLock { $0 }!, value: snapshotMilliseconds, unit: "ms")
        BenchmarkRecord.scaling("daemon resident memory with one observer", size: snapshotSize.withLock { $0 }!, value: resident, unit: "MB")
        BenchmarkRecord.figure("one observer of \(snapshotSize.withLock { $0 }!) assets: snapshot", ours: snapshotMilliseconds,
                               peer: nil, peerName: nil, unit: "ms", target: "≤ 1,000 ms at 1M")
        BenchmarkRecord.figure("… daemon resident memory", ours: resident, peer: nil, peerName: nil, unit: "MB",
                               target: "≤ 150 MB at 1M")
        defer { listener.cancel() }
        let ids = try await writer.fetchAssets(pageSize: 1_000).assets.map(\.id)
        let files = try FileManager.default.contentsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }.sorted()

        print("\none observer holding the whole library; milliseconds from PerformChanges returning to the observer's reply")
        print("change           | rounds | median |   p99 |   max")
        for kind in ["favorite toggle", "insertion"] {
            var latencies = Measurements()
            for round in 0..<(kind == "insertion" ? min(rounds, files.count) : rounds) {
                var changes = PhotoLibrary.ChangeBuilder()
                if kind == "insertion" {
                    _ = changes.createAsset(fromFile: photos + "/" + files[round])
                } else {
                    changes.setFavorite(round % 2 == 0, for: [ids[round % ids.count]])
                }
                let token = try await writer.performChanges(changes).token
                let returned = monotonicMilliseconds()
                var arrived: Double?
                while arrived == nil {
                    arrived = arrivals.withLock { $0[token] }
                    if arrived == nil { try await Task.sleep(for: .microseconds(200)) }
                }
                latencies.append(max(0, arrived! - returned))
            }
            print(String(format: "%-16@ | %6d | %6.2f | %5.2f | %5.2f", kind as NSString, latencies.values.count,
                         latencies.median, latencies.percentile(0.99), latencies.percentile(1)))
            BenchmarkRecord.samples("one observer of \(assetCount) assets, \(kind): PerformChanges to reply", latencies.values, unit: "ms")
        }
        await observer.close()
        await writer.close()
    }

    /// `count` observers of the favorites and the 50 newest; a toggle every 10 ms; commit-to-reply latency.
    static func manyObservers(socket: String, observers count: Int, changes: Int) async throws {
        let writer = try await PhotoLibrary.connect(socketPath: socket)
        let ids = try await writer.fetchAssets(pageSize: 100).assets.map(\.id)
        let commits = Mutex<[String: Double]>([:])
        let arrivals = ArrivalLog()
        var listeners: [Task<Void, any Error>] = []
        var connections: [PhotoLibrary] = []
        let favorites = try await writer.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumFavorites)).collections[0]
        let queries = [
            "favorites": AssetQuery(collection: favorites.id),
            "newest": AssetQuery(sort: [SortDescriptor(key: "creationDate", ascending: false)], limit: 50),
        ]
        for _ in 0..<count {
            let connection = try await PhotoLibrary.connect(socketPath: socket)
            connections.append(connection)
            let events = connection.observe(assetQueries: queries)
            listeners.append(Task {
                for try await event in events {
                    let now = monotonicMilliseconds()
                    arrivals.record(event.token, at: now, isSnapshot: event.isSnapshot)
                }
            })
        }
        let subscribing = monotonicMilliseconds()
        while arrivals.snapshots < count {
            guard monotonicMilliseconds() - subscribing < 300_000 else { throw BenchmarkError("observers did not subscribe") }
            try await Task.sleep(for: .milliseconds(10))
        }
        for round in 0..<changes {
            let started = monotonicMilliseconds()
            var change = PhotoLibrary.ChangeBuilder()
            change.setFavorite(round % 2 == 0, for: [ids[round % ids.count]])
            let token = try await writer.performChanges(change).token
            commits.withLock { $0[token] = monotonicMilliseconds() }
            let elapsed = monotonicMilliseconds() - started
            if elapsed < 10 { try await Task.sleep(for: .milliseconds(10 - elapsed)) }
        }
        try await Task.sleep(for: .seconds(2))
        let committed = commits.withLock { $0 }
        var latencies = Measurements()
        for arrival in arrivals.replies {
            if let commit = committed[arrival.token] { latencies.append(max(0, arrival.time - commit)) }
        }
        print(String(format: "%9d | %7d | %6.2f | %5.2f | %5.2f", count, latencies.values.count, latencies.median,
                     latencies.percentile(0.99), latencies.percentile(1)))
        let observers = count == 1 ? "1 observer" : "\(count) observers"
        BenchmarkRecord.samples("\(observers): commit to reply", latencies.values, unit: "ms")
        BenchmarkRecord.figure("\(observers) of two queries, 100 changes/s: p99", ours: latencies.percentile(0.99),
                               peer: nil, peerName: nil, unit: "ms", target: count == 1_000 ? "≤ 20 ms" : "")
        for listener in listeners { listener.cancel() }
        for connection in connections { await connection.close() }
        await writer.close()
    }
}

/// Reply arrival times recorded by many observer tasks.
final class ArrivalLog: Sendable {
    private let state = Mutex<(snapshots: Int, replies: [(token: String, time: Double)])>((0, []))

    func record(_ token: String, at time: Double, isSnapshot: Bool) {
        state.withLock { state in
            if isSnapshot { state.snapshots += 1 } else { state.replies.append((token, time)) }
        }
    }

    var snapshots: Int { state.withLock { $0.snapshots } }
    var replies: [(token: String, time: Double)] { state.withLock { $0.replies } }
}
