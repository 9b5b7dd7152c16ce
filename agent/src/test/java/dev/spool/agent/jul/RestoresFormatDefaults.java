package dev.spool.agent.jul;

import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests that set what {@code SimpleFormatter} reads from the JVM: after each test the default
 * time zone, the default locale (both categories) are what they were before it, and the
 * {@code java.util.logging.SimpleFormatter.format} property is cleared. Use with
 * {@code @ExtendWith(RestoresFormatDefaults.class)}.
 */
final class RestoresFormatDefaults implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RestoresFormatDefaults.class);

    private record Saved(TimeZone zone, Locale locale, Locale formatLocale) {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put(Saved.class, new Saved(TimeZone.getDefault(), Locale.getDefault(),
                Locale.getDefault(Locale.Category.FORMAT)));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Saved saved = context.getStore(NS).remove(Saved.class, Saved.class);
        TimeZone.setDefault(saved.zone());
        Locale.setDefault(saved.locale());
        Locale.setDefault(Locale.Category.FORMAT, saved.formatLocale());
        System.clearProperty(CompiledSimpleFormatter.FORMAT_PROPERTY);
    }
}
