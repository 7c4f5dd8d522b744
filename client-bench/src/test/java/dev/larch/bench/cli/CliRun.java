package dev.larch.bench.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** Runs the CLI in-process and keeps its exit code and error text. */
record CliRun(int exitCode, String err) {
    static CliRun of(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = BenchMain.commandLine();
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, err.toString());
    }
}
