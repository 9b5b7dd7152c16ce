package dev.spool.agent.jul;

import java.util.Locale;

/**
 * A journal decoder's last locale: records in a row mostly share their locale's tag, so recovery makes
 * one {@code Locale} per change of tag, not per record. Not thread-safe: one per decoder.
 */
final class JulLastLocale {
    private String tag;
    private Locale locale;

    /** The locale of {@code languageTag} ({@code Locale.forLanguageTag}), the last one's when the tag is the same. */
    Locale of(String languageTag) {
        if (!languageTag.equals(tag)) {
            locale = Locale.forLanguageTag(languageTag);
            tag = languageTag;
        }
        return locale;
    }
}
