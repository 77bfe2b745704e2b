#ifndef TESTLEDGER_LOADER_H
#define TESTLEDGER_LOADER_H

/// Registers TestLedger's XCTest observer; defined in Swift by the TestLedger module.
/// Called once, when the test binary loads, by a load-time constructor.
void testledger_register_observer(void) __attribute__((weak));

#endif
