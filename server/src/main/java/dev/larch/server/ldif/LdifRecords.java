package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.nio.charset.CharacterCodingException;
import java.util.regex.Pattern;

import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.ldif.LdapLdifException;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.ldif.LdifReader;

/**
 * Reads LDIF one record at a time and fails loudly. {@link LdifReader}'s iterator parses one
 * record ahead, loses the record in hand when the next one is bad, and reports a read error as the
 * end of the input; here every failure is an {@link LdifImporter.ImportException} naming the
 * record by position and DN. Not thread-safe.
 */
final class LdifRecords extends LdifReader {
    /** The API's message codes ("ERR_13460_BAD_ATTRIBUTE Bad attribute"): users need only the text. */
    private static final Pattern MESSAGE_CODE = Pattern.compile("^ERR_\\d+_[A-Z0-9_]+ ");

    private static final int MAX_DN_SHOWN = 200;

    private final UrlValues urlValues;
    private boolean started;
    private long recordPosition;

    LdifRecords(BufferedReader in) {
        this(in, 0, 0, UrlValues.REFUSED);
    }

    /**
     * Reads a part of a file that starts after {@code recordsBefore} records and {@code linesBefore}
     * lines, so that positions and line numbers name places in the whole file.
     *
     * @param urlValues what a value given by URL ({@code attr:< file:///...}) may read
     */
    LdifRecords(BufferedReader in, long recordsBefore, int linesBefore, UrlValues urlValues) {
        this.reader = in;
        this.recordPosition = recordsBefore;
        this.lineNumber = linesBefore;
        this.urlValues = urlValues;
    }

    /**
     * A value as the reader parses it, except that a URL value ({@code :<}) is read only as
     * {@link UrlValues} allows: the API's reader would open any local file.
     */
    @Override
    protected Object parseValue(String attributeName, String line, int pos) throws LdapLdifException {
        if (line.length() > pos + 1 && line.charAt(pos + 1) == '<') {
            return urlValues.read(attributeName, line.substring(pos + 2).strip());
        }
        return super.parseValue(attributeName, line, pos);
    }

    /**
     * The next record, or null at the end of the input.
     *
     * @throws LdifImporter.ImportException when the input cannot be read or a record does not parse
     */
    LdifEntry read() {
        try {
            if (!started) {
                started = true;
                version = parseVersion(); // also reads the first record's lines
            } else {
                readLines();
            }
        } catch (LdapLdifException e) {
            throw new LdifImporter.ImportException("entry " + (recordPosition + 1)
                    + ": cannot read the file after line " + lineNumber + ": " + readFailure(e));
        }
        if (lines.isEmpty()) {
            return null;
        }
        recordPosition++;
        String first = lines.get(0);
        try {
            return parseEntry();
        } catch (LdapException | RuntimeException e) {
            // After a failed parse the reader's line number is at (comments and folded lines
            // aside) the offending line.
            throw new LdifImporter.ImportException("entry " + recordPosition + " (" + shown(first) + "), near line "
                    + lineNumber + ": " + text(e.getMessage()));
        }
    }

    /** How many records {@link #read()} has returned or failed on. */
    long position() {
        return recordPosition;
    }

    private static String readFailure(LdapLdifException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CharacterCodingException) {
            return "the file is not UTF-8 (" + cause + ")";
        }
        return cause != null ? cause.toString() : text(e.getMessage());
    }

    /** The record's DN as written, or its first line when that is no {@code dn:} line. */
    private static String shown(String firstLine) {
        String s = firstLine.regionMatches(true, 0, "dn:", 0, 3) && !firstLine.startsWith("dn::", 0)
                ? firstLine.substring(3).strip()
                : firstLine;
        return s.length() <= MAX_DN_SHOWN ? s : s.substring(0, MAX_DN_SHOWN) + "...";
    }

    private static String text(String message) {
        if (message == null) {
            return "does not parse";
        }
        if (message.startsWith("ERR_13440_NO_CHANGE")) {
            // The reader refuses a change record after plain entries with "No changes within entries".
            return "only plain entries can be imported, not change records (changetype:)";
        }
        return MESSAGE_CODE.matcher(message.strip()).replaceFirst("");
    }
}
