package dev.larch.server.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Only the store knows LMDB: no class of the server outside {@code dev.larch.server.store} (and its
 * subpackages) depends on lmdbjava. The rest of the server sees transactions, trees and the store's
 * own exceptions, so the engine's API, its buffers and its failure types can change in one room.
 */
class LmdbConfinementTest {
    @Test
    void onlyTheStoreDependsOnLmdbjava() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.larch.server");
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.larch.server.store..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.lmdbjava..")
                .because("the store is the one room that knows LMDB")
                .check(classes);
    }
}
