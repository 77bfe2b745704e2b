print("testledger")
