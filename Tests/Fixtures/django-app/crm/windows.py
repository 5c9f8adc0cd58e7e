"""Date-window filters (django-filter), for the `/windowed/` prefix: `?updated_after=...&updated_before=...`
select the records whose `updated_at` is in the half-open window [updated_after, updated_before)
(ISO 8601 times), as the date-range filters of Airbyte's and dlt's backfills send them."""

import django_filters


class UpdatedWindow(django_filters.FilterSet):
    """Declared filters only (no model): the same FilterSet serves people, projects and tasks."""

    updated_after = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="gte")
    updated_before = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="lt")
