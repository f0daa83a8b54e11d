import Logging
import PhotolibProtocol
import ServiceLifecycle

/// The daemon's own photoanalysisd: runs each analysis step over the assets that wait for it, in the background and
/// out of the way. It pauses while files are being imported, works in committed batches (what is done stays done
/// across restarts and kill -9), reports its progress in `Status`, and looks for new work every few seconds.
package struct BackgroundAnalysis: NamedService {
    let steps: [any AnalysisStep]
    let statistics: ImportStatistics
    /// Ends a pause early when new work comes.
    let wakeUp: AnalysisWakeUp
    let logger: Logger
    /// How long it waits when nothing waits for it, or while imports run.
    let idlePause: Duration

    package init(
        steps: [any AnalysisStep], statistics: ImportStatistics, wakeUp: AnalysisWakeUp, logger: Logger,
        idlePause: Duration = .seconds(5)
    ) {
        self.steps = steps
        self.statistics = statistics
        self.wakeUp = wakeUp
        self.logger = logger
        self.idlePause = idlePause
    }

    package func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var analysed = 0
                if !isImporting {
                    for step in steps {
                        do {
                            analysed += try await step.analyseNextBatch()
                        } catch  where Task.isCancelled {
                            return
                        } catch is CancellationError {
                            // Work a step waited for was called off (the daemon stops: its render queue may end
                            // before this service does): not a failure, and what waits is taken up again.
                            continue
                        } catch {
                            logger.error("background analysis failed", metadata: ["error": "\(error)"])
                        }
                    }
                }
                await reportProgress()
                if analysed == 0 { await wakeUp.wait(upTo: idlePause) } else { await Task.yield() }
            }
        }
    }

    /// Whether files are queued or being imported: their imports go first.
    private var isImporting: Bool {
        let status = statistics.snapshot
        return status.queued > 0 || status.processing > 0
    }

    private func reportProgress() async {
        var analysis = AnalysisStatus()
        for step in steps {
            guard let progress = try? await step.progress() else { continue }
            step.report(progress, in: &analysis)
        }
        statistics.update { [analysis] in $0.analysis = analysis }
    }
}
