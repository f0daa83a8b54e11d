import Foundation
import Glibc
import LibraryStore
import Logging

/// Removes the library's own files that commits stopped using — of purged assets, of replaced and reverted edits —
/// which each commit lists in the database; the list is cleared once the removals are on disk, so a crash in between
/// leaves nothing behind: the next start removes what is still listed.
package struct StoreFileRemoval: Sendable {
    let database: LibraryDatabase

    package init(database: LibraryDatabase) {
        self.database = database
    }

    /// Removes the files a commit just stopped using.
    package func remove(_ paths: [String], logger: Logger) async {
        guard !paths.isEmpty else { return }
        for path in paths where unlink(path) != 0 && errno != ENOENT {
            logger.warning("could not remove purged file", metadata: ["path": "\(path)", "errno": "\(errno)"])
        }
        // The folders' new content first, so that the list outlives the files on any file system.
        for folder in Set(paths.map { ($0 as NSString).deletingLastPathComponent }) {
            _ = FolderSync.sync(folder)
        }
        do {
            try await database.filesToRemove.forgetRemovedFiles(paths)
        } catch {
            logger.warning("removed files stay listed for the next start", metadata: ["error": "\(error)"])
        }
    }

    /// At start, before anything else writes: removes the files a crash left listed.
    package func removeLeftovers(logger: Logger) async throws {
        let paths = try await database.filesToRemove.unusedFilesToRemove()
        guard !paths.isEmpty else { return }
        await remove(paths, logger: logger)
        logger.notice(
            "removed files a crash left after the commit that stopped using them", metadata: ["files": "\(paths.count)"]
        )
    }
}
