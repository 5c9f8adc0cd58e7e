"""DRF's three paginators, configured: 10 records a page unless the request asks (up to 100)."""

from rest_framework.pagination import CursorPagination, LimitOffsetPagination, PageNumberPagination


class PageNumberPages(PageNumberPagination):
    """`?page=2&page_size=10`: `{"count", "next", "previous", "results"}`; a page past the end is 404."""

    page_size = 10
    page_size_query_param = "page_size"
    max_page_size = 100


class CursorPages(CursorPagination):
    """`?cursor=cD0xMA%3D%3D&page_size=10`: `{"next", "previous", "results"}`, ordered by id."""

    page_size = 10
    page_size_query_param = "page_size"
    max_page_size = 100
    ordering = "id"


class LimitOffsetPages(LimitOffsetPagination):
    """`?limit=10&offset=20`: `{"count", "next", "previous", "results"}`."""

    default_limit = 10
    max_limit = 100
