import LedgerCore
import Testing

/// A test named by its id or by its page's address; a command line split into words.
struct TestReferenceTests {
    @Test func anAddressNamesTheTestItsProjectAndRun() {
        let page = TestReference(
            "https://ledger.example/projects/My%20App/tests/FeedTests.FeedTests/testRefresh()?run=0a1b")
        #expect(page.test == "FeedTests.FeedTests/testRefresh()" && page.project == "My App" && page.run == "0a1b")
        let encoded = TestReference("http://127.0.0.1:8080/projects/Feed/tests/FeedTests%2FSpinner/test%20one")
        #expect(encoded.test == "FeedTests/Spinner/test one" && encoded.run == nil)
    }

    @Test func anIdOrAnotherAddressIsTakenAsItIs() {
        for text in [
            "FeedTests.FeedTests/testRefresh", "https://ledger.example/projects/Feed", "https://ledger.example/",
            "ftp://ledger.example/projects/Feed/tests/A/b", "https://ledger.example/projects/Feed/runs/1",
        ] {
            let reference = TestReference(text)
            #expect(reference.test == text && reference.project == nil && reference.run == nil)
        }
    }

    @Test func commandWordsSplitAsAShellSplitsThem() {
        #expect(CommandWords.split("swift test") == ["swift", "test"])
        #expect(
            CommandWords.split(#"  swift test --package-path "My App" --filter 'a b'\ c x\"y "q\"\n" "#)
                == ["swift", "test", "--package-path", "My App", "--filter", "a b c", "x\"y", "q\"\\n"])
        #expect(CommandWords.split(#"echo "" ''"#) == ["echo", "", ""])
        #expect(CommandWords.split("") == [] && CommandWords.split("   ") == [])
        #expect(CommandWords.split("swift 'test") == nil && CommandWords.split(#"swift "test"#) == nil)
        #expect(CommandWords.split(#"swift \"#) == nil)
    }

    @Test func aQuotedWordSplitsBackIntoItself() {
        #expect(CommandWords.quoted("FeedTests.FeedTests/testRefresh") == "FeedTests.FeedTests/testRefresh")
        #expect(CommandWords.quoted("Checkout/charges the card") == "'Checkout/charges the card'")
        for word in ["Feed/failsOnce()", "it's $HOME", "a\"b\\c", "", "tab\there", "é"] {
            #expect(CommandWords.split(CommandWords.quoted(word)) == [word], "\(word)")
        }
    }
}
