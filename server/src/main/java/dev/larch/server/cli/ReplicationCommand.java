package dev.larch.server.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code ./larch replication status}: replication seen from outside a running server. */
@Command(
        name = "replication",
        mixinStandardHelpOptions = true,
        description = "Replication of a running server (see 'status').",
        subcommands = {ReplicationStatusCommand.class})
final class ReplicationCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("larch: replication: say what: status (see './larch replication --help')");
        return 2;
    }
}
