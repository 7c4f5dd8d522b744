package dev.larch.server.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The server's rooms depend on each other without a cycle: each package directly under
 * {@code dev.larch.server} (with its subpackages) is one room, and the classes of
 * {@code dev.larch.server} itself (the server's assembly, the store's opening) another. A cycle
 * makes two rooms one in all but name: neither can change, be tested or be understood alone.
 * Subpackages of one room (auth and auth.policy) may know each other.
 */
class PackageCyclesTest {
    private static final String ROOT = "dev.larch.server";

    @Test
    void theServersPackagesFormNoCycle() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        slices().assignedFrom(new Rooms()).should().beFreeOfCycles().check(classes);
    }

    /** A class's room: the first package below the root, or the root itself. */
    private static final class Rooms implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals(ROOT)) {
                return SliceIdentifier.of("(root)");
            }
            if (!name.startsWith(ROOT + ".")) {
                return SliceIdentifier.ignore();
            }
            String rest = name.substring(ROOT.length() + 1);
            int dot = rest.indexOf('.');
            return SliceIdentifier.of(dot < 0 ? rest : rest.substring(0, dot));
        }

        @Override
        public String getDescription() {
            return "the packages directly under " + ROOT + " and the root";
        }
    }
}
