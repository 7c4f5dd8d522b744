package dev.larch.jmh.compare;

/** How one benchmark's result relates to its baseline. */
public enum Verdict {
    /** Better than the baseline by more than the threshold and beyond both error bars. */
    FASTER("faster"),
    /** Worse than the baseline by more than the threshold and beyond both error bars: a regression. */
    SLOWER("SLOWER"),
    /** Within the threshold, with error bars narrow enough to tell. */
    SAME("same"),
    /** Too noisy to judge: the result's error bar wider than the threshold, or a change inside the bars. */
    NOISY("noisy"),
    /**
     * Cannot be judged because the baseline itself is too uncertain: its error is unknown or above
     * {@link Comparison#BASELINE_MAX_ERROR_PERCENT} of its score. A warning that the baseline needs
     * recording again; it does not fail the check.
     */
    BASELINE_NOISY("baseline too noisy");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
