package dev.larch.bench.cli;

import picocli.CommandLine.Option;

/** How {@code bench} draws people and groups from the data file (a picocli mixin). */
final class KeyOptions {
    @Option(
            names = "--key-skew",
            defaultValue = "0",
            description = "Zipf exponent for drawing people and groups from the whole data set: 0 uniform"
                    + " (default), e.g. 0.99 for a typical hot set. The seed decides which keys are hot.")
    double keySkew;

    /** The skew, checked. */
    double keySkew() {
        if (!(keySkew >= 0) || Double.isInfinite(keySkew)) {
            throw new BadInputException("--key-skew must be a number >= 0 (0: uniform; e.g. 0.99), not " + keySkew);
        }
        return keySkew;
    }
}
