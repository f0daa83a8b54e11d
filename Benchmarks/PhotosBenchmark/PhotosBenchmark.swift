import BenchmarkSupport
import CMalloc
import CompactJSON
import Foundation
import PhotoLibrary
import Photos
import Varlink

/// Times the `Photos` module beside the raw socket on the same queries of a library of N assets: a fetch
/// (the result's ids), enumerating every object of it, and a 500-asset page; and the memory a program
/// holding the whole result grows by.
@main
struct PhotosBenchmark {
    static func main() async throws {
        let arguments = BenchmarkArguments.parse(command: "photos-benchmark", defaultAssets: 100_000, defaultRounds: 20)
        let assetCount = arguments.assetCount, rounds = arguments.rounds
        _ = try await BenchmarkLibrary.build(in: arguments.work, count: assetCount)
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(arguments.daemonBinary, work: arguments.work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        setenv("PHOTOLIBD_SOCKET", socket, 1)

        // Building the library in this process leaves freed pages behind: give them back before measuring.
        malloc_trim(0)
        let residentBefore = BenchmarkLibrary.residentMegabytes(ofProcess: getpid())
        let held = PHAsset.fetchAssets(with: nil)
        precondition(held.count == assetCount, "the library has \(held.count) assets, not \(assetCount)")
        let residentHolding = BenchmarkLibrary.residentMegabytes(ofProcess: getpid())
        print(
            String(
                format: "holding a %d-asset PHFetchResult: resident %.1f MB → %.1f MB, +%.1f MB (%.0f bytes per asset)",
                assetCount, residentBefore, residentHolding, residentHolding - residentBefore,
                (residentHolding - residentBefore) * 1_048_576 / Double(assetCount)))
        BenchmarkRecord.figure(
            "Photos (\(assetCount) assets): a program holding the whole PHFetchResult grows by",
            ours: residentHolding - residentBefore, peer: nil, peerName: nil, unit: "MB",
            target: "≤ 40 MB at 1M")
        BenchmarkRecord.scaling(
            "memory of a program holding a PHFetchResult of the library", size: assetCount,
            value: residentHolding - residentBefore, unit: "MB")
        fflush(nil)

        print("\nPhotos module beside the raw socket, \(assetCount) assets, \(rounds) rounds (milliseconds, medians)")
        print("what                                   | Photos / PhotoLibrary | raw socket | ratio | target")
        // The fetch is sent at once and answered lazily, as PhotoKit's is: the first `count` waits for the ids.
        var fetches = Measurements(), firstUses = Measurements(), snapshots = Measurements()
        let observe = #"{"method":"io.photolibd.Library.Observe","more":true,"parameters":{"assetQueries":{"all":{}}}}"#
        for _ in 0..<rounds {
            var start = monotonicMilliseconds()
            let result = PHAsset.fetchAssets(with: nil)
            fetches.append(monotonicMilliseconds() - start)
            precondition(result.count == assetCount)
            firstUses.append(monotonicMilliseconds() - start)
            let raw = try RawVarlinkClient(socketPath: socket)
            start = monotonicMilliseconds()
            _ = try raw.call(observe)
            snapshots.append(monotonicMilliseconds() - start)
        }
        report("PHAsset.fetchAssets(with: nil) returns", fetches, snapshots, assets: assetCount, target: "< 20 ms")
        report(
            "  … and its first count (ids in hand)", firstUses, snapshots, assets: assetCount, target: "≤ 100 ms at 1M")
        // The client's own share of that count: reading the snapshot's ids into their packed form, from bytes in hand.
        let snapshot = try RawVarlinkClient(socketPath: socket).reply(to: observe)
        let idReading = try readingTime(of: snapshot, as: CompactObservationUpdate.self, rounds: rounds) {
            $0?.results["all"]?.count == assetCount
        }
        print(String(format: "  … of which reading its %d MB of ids: %.1f ms", snapshot.count >> 20, idReading))

        let pages = Int((Double(assetCount) / 500).rounded(.up))
        var enumerations = Measurements(), paging = Measurements()
        let raw = try RawVarlinkClient(socketPath: socket)
        for _ in 0..<max(rounds / 4, 3) {
            let result = PHAsset.fetchAssets(with: nil)
            var start = monotonicMilliseconds()
            var visited = 0
            result.enumerateObjects { asset, _, _ in visited += asset.pixelWidth > 0 ? 1 : 0 }
            enumerations.append(monotonicMilliseconds() - start)
            precondition(visited == assetCount)
            start = monotonicMilliseconds()
            for page in 0..<pages {
                let call =
                    #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{},"offset":\#(page * 500),"pageSize":500}}"#
                _ = try raw.call(call)
            }
            paging.append(monotonicMilliseconds() - start)
        }
        report("enumerate every object, in order", enumerations, paging, assets: assetCount, target: "≤ 1.5×")

        // A page takes milliseconds: enough of them for a steady median, whatever the rounds.
        try await comparePages(socket: socket, rounds: max(rounds * 5, 300), assets: assetCount)
        let pageCall = #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{},"pageSize":500}}"#

        // The client's own share of that page: reading the reply's JSON into assets, from bytes in hand.
        let pageReply = try raw.reply(to: pageCall)
        let pageReading = try readingTime(of: pageReply, as: AssetFetchResult.self, rounds: rounds * 5) {
            $0?.assets.count == 500
        }
        print(String(format: "  … of which reading its %d kB of JSON: %.2f ms", pageReply.count / 1000, pageReading))
        withExtendedLifetime(held) {}
    }

    /// The client's own share of a call: reading a reply's parameters, from bytes in hand; the median of `rounds`
    /// reads, each of which `check` must accept.
    private static func readingTime<Parameters: JSONReadable>(
        of reply: [UInt8], as type: Parameters.Type, rounds: Int, check: (Parameters?) -> Bool
    ) throws -> Double {
        var reads = Measurements()
        for _ in 0..<rounds {
            let start = monotonicMilliseconds()
            let parameters = try reply.withUnsafeBytes { bytes in
                try JSONReader.read(bytes) { json throws(JSONReadError) in
                    var parameters: Parameters?
                    try json.readObject { key, json throws(JSONReadError) in
                        if case "parameters" = key {
                            parameters = try Parameters(reading: &json)
                        } else {
                            try json.skipValue()
                        }
                    }
                    return parameters
                }
            }
            reads.append(monotonicMilliseconds() - start)
            precondition(check(parameters))
        }
        return reads.median
    }

    /// Times `PhotoLibrary.fetchAssets` pages beside the raw socket's, and the same call through `VarlinkConnection`
    /// with the assets skipped over, not read: the connection's share of the page apart from reading its assets. Then
    /// the CPU time each way takes per page. Off the main actor, as a client's work usually is: `main`'s own actor
    /// would add a hop back to it after every call.
    private nonisolated static func comparePages(socket: String, rounds: Int, assets: Int) async throws {
        let library = try await PhotoLibrary.connect(socketPath: socket)
        let connection = try await VarlinkConnection.connect(socketPath: socket)
        let raw = try RawVarlinkClient(socketPath: socket)
        for pageSize in [1, 500] {
            var clientPages = Measurements(), rawPages = Measurements(), skippingPages = Measurements()
            let pageCall =
                #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{},"pageSize":\#(pageSize)}}"#
            let fetchPage = { () async throws -> Void in _ = try await library.fetchAssets(pageSize: pageSize) }
            let fetchSkipping = { () async throws -> Void in
                let page = try await connection.call(
                    LibraryMethod.fetchAssets.qualifiedName, parameters: FetchAssetsParameters(pageSize: pageSize),
                    readingAsItArrives: PageWithAssetsSkipped.self)
                precondition(page.assetCount == pageSize, "a page of \(page.assetCount) assets, not \(pageSize)")
            }
            for _ in 0..<rounds {
                var start = monotonicMilliseconds()
                try await fetchPage()
                clientPages.append(monotonicMilliseconds() - start)
                start = monotonicMilliseconds()
                _ = try raw.call(pageCall)
                rawPages.append(monotonicMilliseconds() - start)
                start = monotonicMilliseconds()
                try await fetchSkipping()
                skippingPages.append(monotonicMilliseconds() - start)
            }
            report(
                "PhotoLibrary.fetchAssets, \(pageSize) asset\(pageSize == 1 ? "" : "s")", clientPages, rawPages,
                assets: assets,
                target: pageSize == 500 ? "≤ 1.1×" : "")
            report("  … through Varlink, assets skipped", skippingPages, rawPages, assets: assets, target: "")
            guard pageSize == 500 else { continue }
            let pageCPU = try await cpuMillisecondsPerCall(rounds, fetchPage)
            let skippingCPU = try await cpuMillisecondsPerCall(rounds, fetchSkipping)
            let rawCPU = try await cpuMillisecondsPerCall(rounds) { _ = try raw.call(pageCall) }
            print(
                String(
                    format: "  … CPU of this process per page: %.2f ms, %.2f ms with the assets skipped, %.2f ms raw",
                    pageCPU, skippingCPU, rawCPU))
        }
        await library.close()
        await connection.close()
    }

    /// The CPU time, user and system, that this process spends per call of `body`, over `rounds` calls.
    private nonisolated static func cpuMillisecondsPerCall(_ rounds: Int, _ body: () async throws -> Void)
        async rethrows -> Double
    {
        let start = processCPUMilliseconds()
        for _ in 0..<rounds { try await body() }
        return (processCPUMilliseconds() - start) / Double(rounds)
    }

    private static func report(_ what: String, _ ours: Measurements, _ raw: Measurements, assets: Int, target: String) {
        let figures = String(format: "%21.2f | %10.2f | %5.2f", ours.median, raw.median, ours.median / raw.median)
        print(what.padding(toLength: 38, withPad: " ", startingAt: 0) + " | " + figures + " | " + target)
        BenchmarkRecord.figure(
            "Photos (\(assets) assets): " + what.trimmingCharacters(in: .whitespaces), ours: ours.median,
            peer: raw.median,
            peerName: "raw socket", unit: "ms", target: target)
    }
}

/// A page whose assets are skipped over, not read into `Asset`s: what the connection costs apart from reading them.
private struct PageWithAssetsSkipped: JSONArrayLedObject, Decodable, Sendable {
    let assetCount: Int

    static var leadingArrayKey: StaticString { "assets" }

    static func readElement(_ json: inout JSONReader, appendingTo elements: inout [Void]) throws(JSONReadError) {
        try json.skipValue()
        elements.append(())
    }

    init(elements: [Void], readingMembersAfterArray json: inout JSONReader) throws(JSONReadError) {
        try json.readRemainingMembers { _, json throws(JSONReadError) in try json.skipValue() }
        assetCount = elements.count
    }

    init(reading json: inout JSONReader) throws(JSONReadError) {
        var count = 0
        try json.readObject { key, json throws(JSONReadError) in
            guard case "assets" = key else { return try json.skipValue() }
            try json.readArray { json throws(JSONReadError) in
                try json.skipValue()
                count += 1
            }
        }
        assetCount = count
    }

    private enum CodingKeys: String, CodingKey { case assets }

    init(from decoder: any Decoder) throws {
        assetCount = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .assets).count ?? 0
    }
}
