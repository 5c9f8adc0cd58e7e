"""JSON:API endpoints (djangorestframework-jsonapi), served under /jsonapi/: none yet.

The package is installed (requirements.txt); its viewsets, serializers and
paginators for the CRM go here, and their routes in `urlpatterns`.
"""

urlpatterns = []
