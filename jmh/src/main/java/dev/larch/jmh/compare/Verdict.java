package dev.larch.jmh.compare;

/** How one benchmark's result relates to its baseline. */
public enum Verdict {
    /** Better than the baseline by more than the threshold and beyond both error bars. */
    FASTER("faster"),
    /** Worse than the baseline by more than the threshold and beyond both error bars: a regression. */
    SLOWER("SLOWER"),
    /** Within the threshold, with error bars narrow enough to tell. */
    SAME("same"),
    /** Too noisy to judge: error bars wider than the threshold, or a change inside them. */
    NOISY("noisy");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
