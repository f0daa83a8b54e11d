import GRDB

extension LibraryDatabase {
    /// What kept a write from the database when the fault may pass by itself (its disk full, read-only or failing),
    /// nil for any other error: the work is worth trying again later rather than reporting as failed.
    public static func storageFault(in error: any Error) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL: return "the library's disk is full"
        case .SQLITE_READONLY: return "the library is read-only"
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: return "the library's disk gave an I/O error"
        default: return nil
        }
    }
}
