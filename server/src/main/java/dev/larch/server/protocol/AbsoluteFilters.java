package dev.larch.server.protocol;

/**
 * The absolute true and false filters of RFC 4526, {@code (&)} and {@code (|)}: the Apache codec
 * refuses an empty and/or, so the decoder hands them over as presence filters on these attribute
 * names, which no schema holds, and the filter compiler turns them back into an empty and and an
 * empty or. A client that writes {@code (larch-absolute-true=*)} itself gets the same meaning.
 */
public final class AbsoluteFilters {
    /** The attribute of the presence filter that stands for {@code (&)}. */
    public static final String TRUE_ATTRIBUTE = "larch-absolute-true";
    /** The attribute of the presence filter that stands for {@code (|)}. */
    public static final String FALSE_ATTRIBUTE = "larch-absolute-false";
    /** The root DSE's supportedFeatures value for RFC 4526. */
    public static final String FEATURE_OID = "1.3.6.1.4.1.4203.1.5.3";

    private AbsoluteFilters() {}
}
