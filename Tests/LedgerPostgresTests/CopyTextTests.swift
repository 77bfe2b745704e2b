import PostgresNIO
import Testing

@testable import LedgerPostgres

@Suite struct CopyTextTests {
    @Test func fieldsAreEscapedAsCopysTextFormatReadsThem() {
        var text = CopyText()
        text.append(Int64(-42))
        text.append(7)
        text.append(0.25)
        text.append(Double.infinity)
        text.append(nil as String?)
        text.append(nil as Int?)
        text.append(nil as Double?)
        text.append("tab\there\\back\nline\rend", last: true)
        text.append("café — 日本", last: true)
        #expect(
            String(buffer: text.buffer)
                == "-42\t7\t0.25\tInfinity\t\\N\t\\N\t\\N\ttab\\there\\\\back\\nline\\rend\ncafé — 日本\n")
    }
}
