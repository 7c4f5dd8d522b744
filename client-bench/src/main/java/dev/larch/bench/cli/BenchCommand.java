package dev.larch.bench.cli;

import picocli.CommandLine.Command;

/** {@code ./larch bench}: replays a mix against a server. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a DirectoryMark mix.")
final class BenchCommand implements Runnable {
  @Override
  public void run() {
    throw new BadInputException("not implemented yet");
  }
}
