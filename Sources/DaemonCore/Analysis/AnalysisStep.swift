import PhotolibProtocol

/// One kind of background analysis (places, and what comes after): works through the assets that wait for it, a batch
/// at a time, each batch committed on its own so that a stop or a crash loses at most the batch under way.
package protocol AnalysisStep: Sendable {
    /// Analyses the next batch of waiting assets and commits it; returns how many it analysed (0: none wait, or it
    /// cannot run now).
    func analyseNextBatch() async throws -> Int

    /// How far it is, for `Status`.
    func progress() async throws -> AnalysisProgress

    /// Puts its progress where `Status` reads it.
    func report(_ progress: AnalysisProgress, in status: inout AnalysisStatus)
}
