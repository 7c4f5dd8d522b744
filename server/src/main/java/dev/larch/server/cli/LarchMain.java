package dev.larch.server.cli;

import dev.larch.server.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./larch serve|import|export|cert}: the server's command line. */
@Command(
        name = "larch",
        mixinStandardHelpOptions = true,
        versionProvider = LarchMain.VersionProvider.class,
        description = "Larch LDAP directory server",
        subcommands = {
            ServeCommand.class,
            ImportCommand.class,
            ExportCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            VerifyCommand.class,
            CertCommand.class,
            ReloadCommand.class,
            ConfigCommand.class,
            ReplicationCommand.class
        })
public final class LarchMain implements Runnable {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line: one-line messages for bad arguments and failures. */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new LarchMain());
        cmd.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            // The qualified name spells a nested command whole: "larch replication status".
            String help = "./" + failed.getCommandSpec().qualifiedName(" ") + " --help";
            failed.getErr().println("larch: " + ex.getMessage() + " (see '" + help + "')");
            return 2;
        });
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("larch: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return 1;
        });
        return cmd;
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Larch " + Version.get()};
        }
    }
}
