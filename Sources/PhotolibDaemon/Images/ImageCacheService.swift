import Foundation
import NIOPosix
import ServiceLifecycle

/// The image manager's background work as a service: following library changes, making grid renditions of
/// imported assets, recording rendition use, and sweeping what a crash left in the cache. At shutdown it
/// stops the render threads and records rendition use.
struct ImageCacheService: Service {
    let images: ImageManager
    let fileWork: NIOThreadPool

    func run() async throws {
        let started = Date()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await images.followLibraryChanges() }
                group.addTask { await images.warmUpListedAssets() }
                group.addTask { await images.saveCacheUsage(every: .seconds(30)) }
                group.addTask { try? await fileWork.runIfActive { images.removeOrphanedRenditions(olderThan: started) } }
            }
        }
        try await fileWork.runIfActive { images.shutDown() }
    }
}
