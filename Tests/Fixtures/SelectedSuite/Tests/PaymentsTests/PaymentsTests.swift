import Fakes
import Payments
import Testing

@Suite struct PaymentsTests {
    @Test func anEmptyCartIsNotCharged() {
        #expect(Payments().charge(fakeCart()) == 0)
    }

    @Test func aCartIsChargedItsTotalRounded() {
        #expect(Payments().charge(fakeCart(250, 103)) == 355)
    }

    @Test func aLargeChargeNeedsConfirmation() {
        #expect(Payments().needsConfirmation(20_000))
        #expect(!Payments().needsConfirmation(10_000))
    }
}
