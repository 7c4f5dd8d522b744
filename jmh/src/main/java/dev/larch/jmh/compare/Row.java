package dev.larch.jmh.compare;

/**
 * One benchmark present in both files.
 *
 * @param baseline the baseline's score
 * @param result the new score, converted to the baseline's unit
 * @param changePercent how much the score moved, in percent of the baseline score (positive: it grew;
 *     for time per op that is slower)
 * @param verdict the judgement
 * @param note why, when the verdict needs a reason (noise, changed params); empty otherwise
 */
public record Row(Score baseline, Score result, double changePercent, Verdict verdict, String note) {

    public String name() {
        return baseline.displayName();
    }
}
