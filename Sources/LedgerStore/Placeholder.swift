import LedgerCore
