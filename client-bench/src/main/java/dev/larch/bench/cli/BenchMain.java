package dev.larch.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code ./larch gen} and {@code ./larch bench}.
 *
 * <p>Exit codes: 0 success, 1 an unexpected failure, 2 bad input (one line on stderr, no stack
 * trace), 3 results that do not match ({@code bench compare} and {@code bench merge} without
 * {@code --force}; one line per difference). Set {@code LARCH_DEBUG=1} to see stack traces of unexpected failures.
 */
@Command(
        name = "larch",
        mixinStandardHelpOptions = true,
        versionProvider = HarnessVersion.Provider.class,
        description = "DirectoryMark-style data generator and LDAP load harness.",
        subcommands = {GenCommand.class, BenchCommand.class, PsearchRateCommand.class})
public final class BenchMain implements Runnable {
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_BAD_INPUT = 2;
    public static final int EXIT_MISMATCH = 3;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** A configured command line; tests call {@code execute} on it to avoid {@code System.exit}. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new BenchMain());
        cl.setExecutionExceptionHandler(BenchMain::handle);
        // One line for a mistyped option, not the whole usage text.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr()
                    .println(c.getCommandSpec().qualifiedName(" ") + ": " + ex.getMessage() + " (try "
                            + c.getCommandSpec().qualifiedName(" ") + " --help)");
            return EXIT_BAD_INPUT;
        });
        return cl;
    }

    private static int handle(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName(" ");
        if (e instanceof MismatchException) {
            err.println(name + ": " + e.getMessage());
            return EXIT_MISMATCH;
        }
        if (e instanceof BadInputException || e instanceof IllegalArgumentException) {
            err.println(name + ": " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        if (e instanceof IOException || e instanceof UncheckedIOException) {
            err.println(name + ": I/O error: " + e.getMessage());
            return EXIT_FAILURE;
        }
        err.println(name + ": unexpected failure: " + e);
        if (System.getenv("LARCH_DEBUG") != null) {
            e.printStackTrace(err);
        }
        return EXIT_FAILURE;
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
