package dev.larch.server.auth.sasl;

/**
 * A string that a regular expression may read only so many characters of: every {@link #charAt} counts,
 * and past the budget it throws {@link BudgetExceeded}. Java's regex engine backtracks, so a pattern
 * such as {@code (a+)+$} can take exponential time on a subject chosen to defeat it; reading through this
 * bounds a match to the budget whatever the pattern. Not thread-safe; one per match.
 */
final class BoundedText implements CharSequence {
    /** Thrown when a match has read more characters than its budget allows. */
    static final class BudgetExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded() {
            super("pattern evaluation exceeded its budget", null, false, false);
        }
    }

    private final String text;
    private long budget;

    BoundedText(String text, long budget) {
        this.text = text;
        this.budget = budget;
    }

    @Override
    public char charAt(int index) {
        if (--budget < 0) {
            throw new BudgetExceeded();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    /** Group values are cut after the match, from the plain string, outside the budget. */
    @Override
    public CharSequence subSequence(int start, int end) {
        return text.substring(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
