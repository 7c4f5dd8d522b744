package dev.larch.bench.gen;

import java.util.List;

/** The organizational units of the dbgen shape: people live in the first five, groups in the last. */
public final class OrgUnits {
    public static final List<String> PEOPLE_UNITS =
            List.of("Accounting", "Product Development", "Product Testing", "Human Resources", "Payroll");
    public static final String GROUPS = "Groups";

    private OrgUnits() {}
}
