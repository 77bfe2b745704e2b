import Testing

@Suite struct ShardedSwiftTests {
    @Test func case01() { #expect(1 * 2 == 2) }
    @Test func case02() { #expect(2 * 2 == 4) }
    @Test func case03() { #expect(3 * 2 == 6) }
    @Test func case04() { #expect(4 * 2 == 8) }
    @Test func case05() { #expect(5 * 2 == 10) }
    @Test func case06() { #expect(6 * 2 == 12) }
    @Test func case07() { #expect(7 * 2 == 14) }
    @Test func case08() { #expect(8 * 2 == 16) }
    @Test func case09() { #expect(9 * 2 == 18) }
    @Test func case10() { #expect(10 * 2 == 20) }
    @Test func case11() { #expect(11 * 2 == 22) }
    @Test func case12() { #expect(12 * 2 == 24) }
    @Test func case13() { #expect(13 * 2 == 26) }
    @Test func case14() { #expect(14 * 2 == 28) }
    @Test func case15() { #expect(15 * 2 == 30) }
    @Test func case16() { #expect(16 * 2 == 32) }
    @Test func case17() { #expect(17 * 2 == 34) }
    @Test func case18() { #expect(18 * 2 == 36) }
    @Test func case19() { #expect(19 * 2 == 38) }
    @Test func case20() { #expect(20 * 2 == 40) }
}
