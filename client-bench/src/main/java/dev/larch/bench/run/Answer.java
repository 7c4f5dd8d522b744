package dev.larch.bench.run;

/**
 * The judged outcome of one request.
 *
 * @param verdict success, partial success, wrong answer or error
 * @param entries entries returned (searches; 0 otherwise)
 * @param resultCode the LDAP result code (client-side codes such as 91 connectError included)
 * @param connectionUsable false when the SDK says the connection must be replaced
 * @param problem for a wrong answer, what was wrong, e.g. "asked mail=a@x, got uid=b,..."; else null
 */
public record Answer(Verdict verdict, int entries, int resultCode, boolean connectionUsable, String problem) {

    /** The verdict on one answer. */
    public enum Verdict {
        SUCCESS,
        PARTIAL,
        WRONG,
        ERROR
    }

    public static Answer success(int entries) {
        return new Answer(Verdict.SUCCESS, entries, 0, true, null);
    }

    public static Answer partial(int entries, int resultCode) {
        return new Answer(Verdict.PARTIAL, entries, resultCode, true, null);
    }

    public static Answer wrong(int entries, int resultCode, String problem) {
        return new Answer(Verdict.WRONG, entries, resultCode, true, problem);
    }

    public static Answer error(int resultCode, boolean connectionUsable) {
        return new Answer(Verdict.ERROR, 0, resultCode, connectionUsable, null);
    }
}
