# Homebrew formula for TestLedger's release archives, ready for a tap. The placeholders (the
# repository, the version and each archive's SHA-256, each between @ signs) are filled in by
# Scripts/release.sh, which writes the filled copy beside the archives: copy it to the tap's Formula/.
class Testledger < Formula
  desc "Records test runs into a ledger and tells which tests to trust"
  homepage "https://github.com/@REPOSITORY@"
  version "@VERSION@"
  license "Apache-2.0"

  on_macos do
    # One binary for arm64 and x86_64.
    url "https://github.com/@REPOSITORY@/releases/download/v@VERSION@/testledger-@VERSION@-macos-universal.tar.gz"
    sha256 "@SHA256:macos-universal@"
  end

  on_linux do
    on_arm do
      url "https://github.com/@REPOSITORY@/releases/download/v@VERSION@/testledger-@VERSION@-linux-aarch64.tar.gz"
      sha256 "@SHA256:linux-aarch64@"
    end
    on_intel do
      url "https://github.com/@REPOSITORY@/releases/download/v@VERSION@/testledger-@VERSION@-linux-x86_64.tar.gz"
      sha256 "@SHA256:linux-x86_64@"
    end
  end

  def install
    bin.install "bin/testledger"
    man1.install "share/man/man1/testledger.1"
    bash_completion.install "share/bash-completion/completions/testledger"
    zsh_completion.install "share/zsh/site-functions/_testledger"
    fish_completion.install "share/fish/vendor_completions.d/testledger.fish"
    # The Bacon output module: `bacon -r #{opt_pkgshare}/bacon/testledger -o TestLedger`.
    pkgshare.install "share/testledger/bacon"
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/testledger --version").strip
  end
end
