import PhotoModel

/// What a transaction reports to the change log: each object it touched once, changes merged.
extension ChangeTransaction {
    /// Notes as changed every folder that holds, at any depth, an album or folder this transaction touched.
    mutating func noteFoldersOfChangedCollections() throws {
        let touched = objectOrder.filter { $0.kind == .collection && objects[$0] != nil && objects[$0]!.change != .removed }
        for key in touched {
            for folder in try ancestors(of: key.id) { note(.collection, folder, .changed) }
        }
    }

    /// Merges one object's change into what this transaction reports (inserted then changed stays inserted).
    mutating func note(_ kind: ObjectKind, _ id: String, _ change: ObjectChangeKind, contentChanged: Bool = false) {
        let key = ObjectKey(kind: kind, id: id)
        guard let existing = objects[key] else {
            objects[key] = ObjectChange(id: id, kind: kind, change: change, contentChanged: contentChanged)
            objectOrder.append(key)
            return
        }
        switch (existing.change, change) {
        case (.inserted, .removed): objects[key] = nil
        case (.inserted, _): break
        default: objects[key] = ObjectChange(id: id, kind: kind, change: change,
                                             contentChanged: existing.contentChanged || contentChanged)
        }
    }
}
