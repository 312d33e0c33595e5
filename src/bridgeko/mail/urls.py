from django.urls import path

from bridgeko.mail import views

app_name = "mail"
urlpatterns = [
    path("e/<slug:edition>/outbox/", views.outbox, name="outbox"),
    path("e/<slug:edition>/outbox/<int:mail>/", views.detail, name="detail"),
    path("e/<slug:edition>/outbox/<int:mail>/send-again/", views.send_again, name="send_again"),
]
