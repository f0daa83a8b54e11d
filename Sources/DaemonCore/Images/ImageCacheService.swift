import Foundation
import ServiceLifecycle

/// The rendition cache's background work as a service: keeping the cache in step with the library (see
/// `RenditionUpkeep`), recording rendition use, and sweeping what a crash left in the cache. At shutdown it
/// stops the render threads and records rendition use.
package struct ImageCacheService: NamedService {
    let maker: RenditionMaker
    let upkeep: RenditionUpkeep
    let freedesktop: FreedesktopThumbnailService

    package init(maker: RenditionMaker, upkeep: RenditionUpkeep, freedesktop: FreedesktopThumbnailService) {
        self.maker = maker
        self.upkeep = upkeep
        self.freedesktop = freedesktop
    }

    package func run() async throws {
        let started = Date()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await upkeep.followLibraryChanges() }
                group.addTask { await upkeep.warmUpListedAssets() }
                if freedesktop.isOn { group.addTask { await upkeep.listReferencedAssets() } }
                group.addTask { await maker.saveCacheUsage(every: .seconds(30)) }
                group.addTask { await maker.removeOrphanedRenditions(olderThan: started) }
            }
        }
        upkeep.finish()
        try await maker.shutDown()
    }
}
