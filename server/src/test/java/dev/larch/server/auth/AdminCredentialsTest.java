package dev.larch.server.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import dev.larch.server.auth.AdminCredentials.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminCredentialsTest {
    private static final Map<String, String> NO_ENV = Map.of();

    @TempDir
    Path dataDir;

    @Test
    void configuredPasswordWinsAndStoresNothing() throws IOException {
        AdminCredentials admin =
                AdminCredentials.resolve("from-config", Map.of(AdminCredentials.ENV_VARIABLE, "from-env"), dataDir);
        assertEquals(Source.CONFIG, admin.source());
        assertTrue(verify(admin, "from-config"));
        assertFalse(verify(admin, "from-env"));
        assertTrue(admin.generatedPassword().isEmpty());
        assertFalse(Files.exists(dataDir.resolve(AdminCredentials.FILE_NAME)));
        assertTrue(new String(admin.verifierHash(), US_ASCII).startsWith("{SSHA256}"));
    }

    @Test
    void configuredHashIsUsedAsItIs() throws IOException {
        String slappasswd = "{SSHA}TbEHpU4o2xUfTa6Uxv803HTSUVRy4+vF";
        AdminCredentials admin = AdminCredentials.resolve(slappasswd, NO_ENV, dataDir);
        assertArrayEquals(slappasswd.getBytes(US_ASCII), admin.verifierHash());
        assertTrue(verify(admin, "secret"));
    }

    @Test
    void environmentIsUsedWithoutConfig() throws IOException {
        AdminCredentials admin = AdminCredentials.resolve(
                null, Map.of(AdminCredentials.ENV_VARIABLE, "from-env"), dataDir, "PBKDF2-SHA256");
        assertEquals(Source.ENVIRONMENT, admin.source());
        assertTrue(verify(admin, "from-env"));
        assertTrue(new String(admin.verifierHash(), US_ASCII).startsWith("{PBKDF2-SHA256}"));
        assertTrue(admin.generatedPassword().isEmpty());
        assertFalse(Files.exists(dataDir.resolve(AdminCredentials.FILE_NAME)));
    }

    @Test
    void aSecretFileNamedInTheEnvironmentGivesThePasswordWithoutItsLineBreak() throws IOException {
        Path secret = Files.writeString(dataDir.resolve("secret"), "from-file\n");
        AdminCredentials admin = AdminCredentials.resolve(
                null, Map.of(AdminCredentials.ENV_FILE_VARIABLE, secret.toString()), dataDir.resolve("data"));
        assertEquals(Source.ENVIRONMENT, admin.source());
        assertTrue(verify(admin, "from-file"));
        assertFalse(verify(admin, "from-file\n"));
        assertFalse(Files.exists(dataDir.resolve("data").resolve(AdminCredentials.FILE_NAME)));
        AdminCredentials variableWins = AdminCredentials.resolve(
                null,
                Map.of(
                        AdminCredentials.ENV_VARIABLE,
                        "from-env",
                        AdminCredentials.ENV_FILE_VARIABLE,
                        secret.toString()),
                dataDir);
        assertTrue(verify(variableWins, "from-env"));
    }

    @Test
    void aMissingOrEmptySecretFileStopsTheStartNamingTheVariable() throws IOException {
        Path missing = dataDir.resolve("missing");
        IOException e = assertThrows(
                IOException.class,
                () -> AdminCredentials.resolve(
                        null, Map.of(AdminCredentials.ENV_FILE_VARIABLE, missing.toString()), dataDir));
        assertTrue(e.getMessage().startsWith("LARCH_ADMIN_PASSWORD_FILE: cannot read " + missing), e.getMessage());
        Path empty = Files.writeString(dataDir.resolve("empty"), "\n");
        IOException none = assertThrows(
                IOException.class,
                () -> AdminCredentials.resolve(
                        null, Map.of(AdminCredentials.ENV_FILE_VARIABLE, empty.toString()), dataDir));
        assertTrue(none.getMessage().contains("is empty"), none.getMessage());
    }

    @Test
    void emptyConfigAndEnvironmentCountAsUnset() throws IOException {
        AdminCredentials admin = AdminCredentials.resolve("", Map.of(AdminCredentials.ENV_VARIABLE, ""), dataDir);
        assertEquals(Source.GENERATED, admin.source());
    }

    @Test
    void firstStartGeneratesStoresHashOwnerOnlyAndReturnsCleartextOnce() throws IOException {
        Path data = dataDir.resolve("not/yet/there");
        AdminCredentials first = AdminCredentials.resolve(null, NO_ENV, data);
        assertEquals(Source.GENERATED, first.source());
        String password = first.generatedPassword().orElseThrow();
        assertTrue(password.length() >= 20, password);
        assertTrue(verify(first, password));

        Path file = data.resolve(AdminCredentials.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String stored = Files.readString(file, US_ASCII);
        assertFalse(stored.contains(password), "the file must hold the hash, never the cleartext");
        assertEquals(new String(first.verifierHash(), US_ASCII) + "\n", stored);
        assertFalse(Files.exists(data.resolve(AdminCredentials.FILE_NAME + ".tmp")));

        AdminCredentials second = AdminCredentials.resolve(null, NO_ENV, data);
        assertEquals(Source.STORED_FILE, second.source());
        assertTrue(second.generatedPassword().isEmpty());
        assertTrue(verify(second, password));
    }

    @Test
    void configOverridesAStoredFile() throws IOException {
        AdminCredentials.resolve(null, NO_ENV, dataDir);
        AdminCredentials admin = AdminCredentials.resolve("from-config", NO_ENV, dataDir);
        assertEquals(Source.CONFIG, admin.source());
        assertTrue(verify(admin, "from-config"));
    }

    @Test
    void environmentOverridesAStoredFile() throws IOException {
        AdminCredentials.resolve(null, NO_ENV, dataDir);
        AdminCredentials admin = AdminCredentials.resolve(null, Map.of(AdminCredentials.ENV_VARIABLE, "e"), dataDir);
        assertEquals(Source.ENVIRONMENT, admin.source());
    }

    @Test
    void generatedPasswordsDiffer() throws IOException {
        String a = AdminCredentials.resolve(null, NO_ENV, dataDir.resolve("a"))
                .generatedPassword()
                .orElseThrow();
        String b = AdminCredentials.resolve(null, NO_ENV, dataDir.resolve("b"))
                .generatedPassword()
                .orElseThrow();
        assertFalse(a.equals(b));
    }

    @Test
    void looseFileModeIsTightenedOnRead() throws IOException {
        AdminCredentials.resolve(null, NO_ENV, dataDir);
        Path file = dataDir.resolve(AdminCredentials.FILE_NAME);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        AdminCredentials.resolve(null, NO_ENV, dataDir);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void storedFileWithoutAHashIsAnErrorNamingTheFile() throws IOException {
        Path file = dataDir.resolve(AdminCredentials.FILE_NAME);
        Files.writeString(file, "plaintext\n");
        IOException e = assertThrows(IOException.class, () -> AdminCredentials.resolve(null, NO_ENV, dataDir));
        assertTrue(e.getMessage().startsWith(file + ": not a password hash"), e.getMessage());
    }

    @Test
    void toStringRevealsNoPassword() throws IOException {
        AdminCredentials admin = AdminCredentials.resolve(null, NO_ENV, dataDir);
        assertFalse(admin.toString().contains(admin.generatedPassword().orElseThrow()));
    }

    private static boolean verify(AdminCredentials admin, String password) {
        return PasswordSchemes.verify(admin.verifierHash(), password.getBytes(UTF_8), false);
    }
}
