import GRDB

/// The columns of a record type, named in the order its SELECT lists them: each is read at its position (its raw
/// value) rather than by name, which costs a dictionary lookup per value on rows read by the thousand.
protocol PositionedColumn: RawRepresentable, CaseIterable where RawValue == Int {
    /// What the SELECT lists for the column.
    var expression: String { get }
}

extension PositionedColumn {
    /// The columns for a SELECT, in their order.
    static var selection: String { allCases.map(\.expression).joined(separator: ", ") }
}

extension Row {
    /// The value of a positioned column.
    @inline(__always)
    subscript<Column: PositionedColumn, Value: DatabaseValueConvertible>(_ column: Column) -> Value {
        self[column.rawValue]
    }

    /// The value of a positioned column, read straight from SQLite's statement.
    @inline(__always)
    subscript<Column: PositionedColumn, Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: Column) -> Value {
        self[column.rawValue]
    }
}
