package dev.larch.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped config file and the configuration reference are generated from {@link SettingCatalog};
 * this fails when either is stale. {@code -Dlarch.regenerate=true} rewrites them instead (see
 * CONTRIBUTING.md).
 */
class GeneratedFilesTest {
    /** Relative to this module (Surefire runs in the module directory). */
    private static final Map<Path, String> GENERATED = Map.of(
            Path.of("larch.conf"), ConfFileRenderer.render(),
            Path.of("..", "docs", "configuration.md"), ReferenceRenderer.render());

    @Test
    void theShippedConfigFileAndTheReferenceAreGeneratedFromTheDeclarations() throws IOException {
        boolean regenerate = Boolean.getBoolean("larch.regenerate");
        for (Map.Entry<Path, String> file : GENERATED.entrySet()) {
            if (regenerate) {
                Files.createDirectories(file.getKey().toAbsolutePath().getParent());
                Files.writeString(file.getKey(), file.getValue(), StandardCharsets.UTF_8);
            }
            assertEquals(
                    file.getValue(),
                    Files.readString(file.getKey()),
                    file.getKey()
                            + " is stale: run mvn -pl config test -Dtest=GeneratedFilesTest -Dlarch.regenerate=true");
        }
    }

    @Test
    void everyDeclaredSettingIsDescribed() {
        for (Setting s : SettingCatalog.all()) {
            assertTrue(!s.description().isBlank(), s.key());
        }
    }

    @Test
    void readingAKeyNobodyDeclaredIsAProgrammingError() {
        Settings s = new Settings("f", Path.of("."), Map.of());
        assertThrows(IllegalStateException.class, () -> s.integer("listen.no-such-key"));
        assertThrows(IllegalStateException.class, () -> s.bool("listen.port"));
    }

    @Test
    void boundsComeFromTheDeclaration() {
        Settings s = new Settings("f", Path.of("."), Map.of("listen.port", "65536"));
        ConfigException e = assertThrows(ConfigException.class, () -> s.integer("listen.port"));
        assertEquals("f: listen.port: expected an integer 0..65535, got '65536'", e.getMessage());
    }
}
