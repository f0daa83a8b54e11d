import Foundation
import NIOPosix
import ServiceLifecycle

/// The image manager's background work as a service: keeping the cache in step with the library (see
/// `RenditionUpkeep`), recording rendition use, and sweeping what a crash left in the cache. At shutdown it
/// stops the render threads and records rendition use.
package struct ImageCacheService: NamedService {
    let images: ImageManager
    let upkeep: RenditionUpkeep
    let fileWork: NIOThreadPool

    package init(images: ImageManager, upkeep: RenditionUpkeep, fileWork: NIOThreadPool) {
        self.images = images
        self.upkeep = upkeep
        self.fileWork = fileWork
    }

    package func run() async throws {
        let started = Date()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await upkeep.followLibraryChanges() }
                group.addTask { await upkeep.warmUpListedAssets() }
                if images.writesFreedesktopThumbnails { group.addTask { await upkeep.listReferencedAssets() } }
                group.addTask { await images.saveCacheUsage(every: .seconds(30)) }
                group.addTask {
                    try? await fileWork.runIfActive { images.removeOrphanedRenditions(olderThan: started) }
                }
            }
        }
        upkeep.finish()
        try await fileWork.runIfActive { images.shutDown() }
    }
}
