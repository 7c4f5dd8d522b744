package dev.larch.server.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import dev.larch.config.ConfigException;
import dev.larch.config.LarchConfig;
import dev.larch.config.Setting;
import dev.larch.config.SettingCatalog;
import dev.larch.schema.LarchSchema;
import dev.larch.schema.SchemaLoadException;
import dev.larch.server.access.AccessFile;
import dev.larch.server.access.AciParser;
import dev.larch.server.access.AciSchema;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./larch config check|describe}: a config file checked without starting, and what a key does. */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Check a config file, or describe a setting.",
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Describe.class})
final class ConfigCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /**
     * Reads a config file as {@code serve} would (every key and value, the schema files, the access
     * rules) and prints the configuration it makes, one {@code key = value} per line, secrets masked;
     * exit 1 with the server's own one-line message when the server would refuse it.
     */
    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = "Validate a config file (default: the embedded defaults) and print the effective"
                    + " configuration, secrets masked; exit 1 naming the problem when the server would refuse it.")
    static final class Check implements Callable<Integer> {
        @Option(names = "--config", paramLabel = "FILE", description = "the configuration file to check")
        Path config;

        @Override
        public Integer call() {
            PrintStream out = System.out;
            LarchConfig.FileConfig file;
            try {
                file = config == null
                        ? new LarchConfig.FileConfig(LarchConfig.defaults(), Map.of())
                        : LarchConfig.loadWithSettings(config);
                SchemaManager schema = LarchSchema.load(file.config().schemaFiles());
                AciSchema aciSchema = new AciSchema(schema);
                AccessFile.load(file.config().access().file(), new AciParser(aciSchema));
            } catch (ConfigException | SchemaLoadException e) {
                System.err.println("larch: config check: " + e.getMessage());
                return 1;
            } catch (IOException | RuntimeException e) {
                System.err.println("larch: config check: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
                return 1;
            }
            for (Setting s : SettingCatalog.all()) {
                if (s.key().startsWith(SettingCatalog.INDEX_PREFIX)) {
                    continue;
                }
                String value = file.settings().getOrDefault(s.key(), s.defaultValue());
                boolean fromFile = file.settings().containsKey(s.key());
                out.println(s.key() + " = " + (s.secret() && !value.isEmpty() ? "***" : value)
                        + (fromFile ? "" : "    # default"));
            }
            file.config()
                    .indexes()
                    .forEach((attribute, kinds) -> out.println(SettingCatalog.INDEX_PREFIX + attribute + " = "
                            + String.join(
                                    ", ",
                                    kinds.stream()
                                            .map(k -> k.name().toLowerCase(Locale.ROOT))
                                            .toList())));
            System.err.println(
                    "larch: config check: " + (config == null ? "the embedded defaults" : config) + " is valid");
            return 0;
        }
    }

    /** Prints what a key does, the values it takes, its default and when a change applies. */
    @Command(
            name = "describe",
            mixinStandardHelpOptions = true,
            description = "Print what a setting does, the values it takes, its default and when a change applies.")
    static final class Describe implements Callable<Integer> {
        @Parameters(paramLabel = "KEY", description = "a configuration key, such as listen.port")
        String key;

        @Override
        public Integer call() {
            Optional<Setting> found = SettingCatalog.find(key);
            if (found.isEmpty()) {
                System.err.println(
                        "larch: config describe: unknown key '" + key + "' (docs/configuration.md lists every key)");
                return 2;
            }
            Setting s = found.get();
            PrintStream out = System.out;
            out.println(s.key());
            out.println("  value:   " + s.valueDescription());
            out.println("  default: " + (s.defaultValue().isEmpty() ? "(empty)" : s.defaultValue()));
            out.println("  applies: " + s.applyDescription());
            out.println();
            for (String line : s.description().strip().split("\n")) {
                out.println("  " + line);
            }
            return 0;
        }
    }
}
