import Foundation
import PhotoLibrary

/// A file of an asset a change block creates, as the program gave it.
struct NewAssetFileSource {
    enum Bytes {
        /// A file this process reads.
        case file(URL)
        /// Bytes in memory.
        case data(Data)
    }

    /// The resource the file becomes; nil for the primary file given on its own.
    var type: ResourceType?
    var bytes: Bytes
    var originalFilename: String?
    var uniformTypeIdentifier: String?
    /// Remove the program's file once the block has committed (`PHAssetResourceCreationOptions.shouldMoveFile`).
    var shouldMoveFile = false
}

/// One change of a block: ready for the wire, or an asset creation whose files are sent when the block commits.
enum BlockChange {
    case ready(ChangeRequest)
    case createAsset(placeholder: PHObjectPlaceholder, files: [NewAssetFileSource])
    /// An edit whose rendered file is sent when the block commits.
    case editAsset(target: String, output: PHContentEditingOutput)
}

/// The change requests of the change block running on this thread, in the order they were made.
final class ChangeBlock: @unchecked Sendable {
    // @unchecked: it belongs to the thread running its change block, which alone makes and commits its changes.
    /// Where `performChanges` runs its blocks, one at a time.
    static let queue = DispatchQueue(label: "photos.performChanges")
    private static let threadKey = "io.photolibd.Photos.changeBlock"

    private(set) var changes: [BlockChange] = []
    private var placeholders: [PHObjectPlaceholder] = []

    /// The block running on this thread; nil outside of a change block.
    static var current: ChangeBlock? {
        Thread.current.threadDictionary[threadKey] as? ChangeBlock
    }

    /// The block on this thread. Outside of one, a change request does nothing, and says so on standard error
    /// (PhotoKit raises an exception).
    static func required(for request: String) -> ChangeBlock? {
        guard let block = current else {
            PhotosLog.report(
                "\(request) was ignored",
                PhotoLibraryError(
                    code: .invalidChange,
                    message: "change requests can only be made inside performChanges or performChangesAndWait"))
            return nil
        }
        return block
    }

    /// Runs `body` as this thread's change block and commits what it asked for.
    static func run(_ body: () -> Void) throws(PHPhotosError) {
        let block = ChangeBlock()
        let thread = Thread.current
        guard thread.threadDictionary[threadKey] == nil else {
            throw PHPhotosError(.changeNotSupported, reason: "a change block cannot run inside another change block")
        }
        thread.threadDictionary[threadKey] = block
        body()
        thread.threadDictionary[threadKey] = nil
        do {
            try block.commit()
        } catch {
            throw PHPhotosError(error)
        }
    }

    func append(_ request: ChangeRequest) {
        changes.append(.ready(request))
    }

    func append(_ change: BlockChange) {
        changes.append(change)
    }

    /// Replaces the files of the creation `placeholder` stands for (a creation request that gained a resource).
    func replaceCreation(of placeholder: PHObjectPlaceholder, files: [NewAssetFileSource]) {
        guard
            let index = changes.firstIndex(where: {
                if case .createAsset(let created, _) = $0 { created === placeholder } else { false }
            })
        else { return }
        changes[index] = .createAsset(placeholder: placeholder, files: files)
    }

    /// A new placeholder for an object this block creates: its identifier is final from now on (a lowercase UUID
    /// the daemon gives the object), as on Apple's platforms.
    func makePlaceholder(_ kind: String) -> PHObjectPlaceholder {
        let placeholder = PHObjectPlaceholder(
            placeholder: "@\(kind)\(placeholders.count + 1)",
            identifier: UUID().uuidString.lowercased())
        placeholders.append(placeholder)
        return placeholder
    }

    /// Sends the files of the assets it creates, then commits every change as one transaction; then removes the
    /// files the program asked to move.
    private func commit() throws {
        guard !changes.isEmpty else { return }
        let transfers = LibraryClient.shared.transfers
        let requests = try changes.map { change throws -> ChangeRequest in
            switch change {
            case .ready(let request):
                return request
            case .editAsset(let target, let output):
                return try output.editRequest(for: target, transfers: transfers)
            case .createAsset(let placeholder, let files):
                let wire = try files.map { try $0.wireFile(transfers: transfers) }
                let single = wire.count == 1 && wire[0].type == nil
                return ChangeRequest(
                    op: "createAsset", path: single ? wire[0].path : nil, placeholder: placeholder.placeholder,
                    id: placeholder.chosenIdentifier, upload: single ? wire[0].upload : nil,
                    resources: single ? nil : wire)
            }
        }
        let result = try LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
            try await library.performChanges(requests)
        }
        // A duplicate of an asset the library has is that asset: its placeholder names it from now on.
        for placeholder in placeholders {
            if let id = result.created[placeholder.placeholder] { placeholder.commit(as: id) }
        }
        for change in changes {
            guard case .createAsset(_, let files) = change else { continue }
            for file in files where file.shouldMoveFile {
                if case .file(let url) = file.bytes { try? FileManager.default.removeItem(at: url) }
            }
        }
    }
}

extension NewAssetFileSource {
    /// The file as a `createAsset` change names it: its path when the daemon reads this process's files (a user's
    /// own daemon), else an upload of its bytes (the system service, another user, a private /tmp).
    func wireFile(transfers: FileTransfers) throws -> NewAssetFile {
        var file = NewAssetFile(
            type: type, originalFilename: originalFilename, uniformTypeIdentifier: uniformTypeIdentifier)
        switch bytes {
        case .file(let url) where transfers.daemonReads(url.standardizedFileURL.path):
            file.path = url.standardizedFileURL.path
        case .file(let url):
            file.upload = try transfers.upload(
                contentsOf: url.path, filename: originalFilename ?? url.lastPathComponent)
        case .data(let data):
            file.upload = try transfers.upload(data, filename: originalFilename)
        }
        return file
    }
}
