package dev.larch.server.auth.policy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;

/**
 * {@code pwdHistory} values in the draft's format (draft-behera section 5.3.6):
 * {@code time#syntaxOID#length#value}, where value is the password as it was stored (hashed when the
 * server hashes). Pure functions.
 */
final class PasswordHistory {
    /** The syntax of userPassword (octet string). */
    static final String USER_PASSWORD_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.40";

    private PasswordHistory() {}

    static byte[] format(Instant time, byte[] storedPassword) {
        byte[] head = (GeneralizedTimes.format(time) + "#" + USER_PASSWORD_SYNTAX + "#" + storedPassword.length + "#")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] value = Arrays.copyOf(head, head.length + storedPassword.length);
        System.arraycopy(storedPassword, 0, value, head.length, storedPassword.length);
        return value;
    }

    /** The stored password of a history value; null when the value is not in the draft's format. */
    static byte[] password(byte[] historyValue) {
        int hashes = 0;
        int start = -1;
        for (int i = 0; i < historyValue.length; i++) {
            if (historyValue[i] == '#' && ++hashes == 3) {
                start = i + 1;
                break;
            }
        }
        return start < 0 ? null : Arrays.copyOfRange(historyValue, start, historyValue.length);
    }

    /** The entry's history values, oldest first (the draft's time prefix sorts as text). */
    static List<byte[]> values(Entry entry) {
        Attribute attribute = entry.get(PolicyAttributes.HISTORY);
        List<byte[]> values = new ArrayList<>();
        if (attribute != null) {
            for (Value v : attribute) {
                values.add(v.getBytes());
            }
        }
        values.sort(Arrays::compare);
        return values;
    }

    /**
     * The history after a change at {@code now}: the former values plus the passwords being replaced,
     * the newest {@code keep} of them.
     */
    static List<byte[]> after(List<byte[]> former, List<byte[]> replacedPasswords, Instant now, int keep) {
        List<byte[]> all = new ArrayList<>(former);
        for (byte[] old : replacedPasswords) {
            all.add(format(now, old));
        }
        int from = Math.max(0, all.size() - keep);
        return keep <= 0 ? List.of() : List.copyOf(all.subList(from, all.size()));
    }
}
