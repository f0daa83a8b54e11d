import Foundation
import Glibc
import SystemFaults
import TestSupport
import Testing

/// The errno behind an error, whichever API reported it, decides whether a failure may pass.
struct SystemErrorCodeTests {
    @Test func foundationsOwnFailureOnAReadOnlyDiskIsAPassingFault() throws {
        guard SmallFileSystem.canMount else { return }
        let disk = try SmallFileSystem(bytes: 1 << 20)
        try disk.setReadOnly(true)
        defer { try? disk.setReadOnly(false) }
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(atPath: disk.path + "/2008/03", withIntermediateDirectories: true)
        }
        let code = try #require(SystemErrorCode(in: error), "\(error)")
        #expect(code == SystemErrorCode(EROFS))
        #expect(code.isPassingFault)
        #expect(code.description == "Read-only file system")
    }

    @Test func foundationsFailureForAReasonOfItsOwnIsNot() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("a-file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(atPath: file + "/inside", withIntermediateDirectories: true)
        }
        let code = try #require(SystemErrorCode(in: error), "\(error)")
        #expect(code == SystemErrorCode(ENOTDIR))
        #expect(!code.isPassingFault)
    }

    @Test(arguments: [
        (POSIXError(.ENOSPC) as any Error, ENOSPC),
        (NSError(domain: NSPOSIXErrorDomain, code: Int(EIO)), EIO),
        (CocoaError(.fileWriteVolumeReadOnly), EROFS),
        (CocoaError(.fileWriteOutOfSpace), ENOSPC),
        (CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: POSIXError(.EDQUOT)]), EDQUOT),
        (
            NSError(
                domain: "Outer", code: 1,
                userInfo: [
                    NSUnderlyingErrorKey: CocoaError(
                        .fileWriteUnknown,
                        userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ESTALE))])
                ]), ESTALE
        ),
    ])
    func theCodeIsFoundWhereverItIsWrapped(error: any Error, expected: Int32) {
        #expect(SystemErrorCode(in: error)?.rawValue == expected)
        #expect(SystemErrorCode(in: error)?.isPassingFault == true)
    }

    @Test func anErrorNamingNoSystemCodeHasNone() {
        #expect(SystemErrorCode(in: CocoaError(.fileReadCorruptFile)) == nil)
        #expect(SystemErrorCode(in: NSError(domain: "Other", code: Int(EROFS))) == nil)
    }
}
